/**
 * The client scenarios that are expected to fail against this host, each with the reason
 * (`expected-failures.json`):
 * `{ "groups": [{ "reason": "...", "runByDefault": false, "scenarios": ["..."] }] }`.
 * A name is a row of the run (`scenario-rows.ts`): the scenario's own name for its default wire,
 * `<name>@2026-07-28` for its second row on the 2026-07-28 wire.
 * `runByDefault` (default true) false marks scenarios that are not run unless asked for (`--all`):
 * ones that stop at the same point for the same reason, where running every one costs minutes.
 */

/** Why one scenario is expected to fail, and whether a default run runs it. */
export interface ExpectedFailure {
  reason: string;
  runByDefault: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Row name → expected failure, from the parsed JSON of `expected-failures.json`.
 *
 * @throws Error naming the problem when the shape is wrong, a reason is empty, or a scenario is
 *   listed twice (two reasons for one failure would make the table ambiguous).
 */
export function parseExpectedFailures(json: unknown): Map<string, ExpectedFailure> {
  if (!isRecord(json) || !Array.isArray(json.groups)) {
    throw new Error('expected-failures: must be an object with a "groups" array');
  }
  const failures = new Map<string, ExpectedFailure>();
  (json.groups as unknown[]).forEach((group, i) => {
    if (!isRecord(group) || typeof group.reason !== 'string' || group.reason.trim() === '') {
      throw new Error(`expected-failures: groups[${i}] needs a non-empty "reason"`);
    }
    if (group.runByDefault !== undefined && typeof group.runByDefault !== 'boolean') {
      throw new Error(`expected-failures: groups[${i}].runByDefault must be true or false`);
    }
    if (!Array.isArray(group.scenarios) || group.scenarios.length === 0) {
      throw new Error(`expected-failures: groups[${i}] needs a non-empty "scenarios" array`);
    }
    const failure: ExpectedFailure = { reason: group.reason, runByDefault: group.runByDefault !== false };
    for (const scenario of group.scenarios as unknown[]) {
      if (typeof scenario !== 'string' || scenario === '') {
        throw new Error(`expected-failures: groups[${i}] has a scenario that is not a name: ${JSON.stringify(scenario)}`);
      }
      if (failures.has(scenario)) throw new Error(`expected-failures: "${scenario}" is listed twice`);
      failures.set(scenario, failure);
    }
  });
  return failures;
}
