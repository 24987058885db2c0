/**
 * Scenario 6: bad input at the edges. A malformed mcp.json (the worker must refuse to start, in
 * one clear line); empty and multi-megabyte user messages sent between two good turns (a clear
 * error, nothing lost, the conversation still usable); unknown conversation ids and bad `mcp-host`
 * arguments (one clear line, non-zero exit).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCliProcess, type CliRun } from '../../test/support/cli-process';
import { spawnWorkerProcess } from '../../test/support/worker-process';
import { faultResult, type FaultResult } from '../report/fault-result';
import type { ChaosScenario, ScenarioContext } from '../scenario';
import type { WorkloadConversation } from '../support/conversation-workload';
import { startScenarioRig, type ScenarioRig } from '../support/scenario-rig';

/** Above Temporal's 2 MB payload limit even gzipped: random bytes as base64 do not compress below ¾. */
const BIG_MESSAGE_BYTES = 3 * 1024 * 1024;

/** The first line of an error's message, with its causes' (the SDK wraps the server's reason). */
function firstLine(err: unknown): string {
  const lines: string[] = [];
  for (let e: unknown = err; e !== undefined && lines.length < 4; e = e instanceof Error ? e.cause : undefined) {
    lines.push((e instanceof Error ? e.message : JSON.stringify(e)).split('\n')[0] ?? '');
  }
  return lines.join(' ← ');
}

/** Runs `attempt`, which must fail; returns the problem if it did not, and notes the error it gave. */
async function mustFail(what: string, attempt: () => Promise<unknown>, result: FaultResult): Promise<void> {
  const started = Date.now();
  try {
    await attempt();
    result.problems.push(`${what}: accepted`);
  } catch (err) {
    result.details.push(`${what}: refused in ${((Date.now() - started) / 1000).toFixed(1)} s: "${firstLine(err).slice(0, 200)}"`);
  }
}

/** A CLI run that must end non-zero with one line on stderr saying `expected`. */
function checkCliError(what: string, run: CliRun, expected: RegExp, result: FaultResult): void {
  const lines = run.stderr.trim().split('\n');
  const first = lines[0] ?? '';
  result.details.push(`${what}: exit ${String(run.code)}, "${first.slice(0, 160)}"${lines.length > 1 ? ` (+${lines.length - 1} lines: the usage)` : ''}`);
  if (run.code === 0 || run.code === null) result.problems.push(`${what}: exit code ${String(run.code)}`);
  if (!expected.test(first)) result.problems.push(`${what}: the first line does not say what is wrong`);
}

async function malformedConfig(context: ScenarioContext, rig: ScenarioRig): Promise<FaultResult> {
  const result = { ...faultResult('bad-input', 'malformed mcp.json'), runs: 1 };
  const file = path.join(rig.dir, 'broken-mcp.json');
  fs.writeFileSync(file, '{ "mcpServers": { "lab": { "command": "node", ');
  const started = Date.now();
  try {
    const worker = await spawnWorkerProcess({ address: context.temporal.address, taskQueue: `${rig.run}-broken`, mcpConfigPath: file, claudeBaseUrl: rig.model.fake.url, root: context.workerRoot });
    await worker.stop();
    result.problems.push('the worker started with a malformed mcp.json');
  } catch (err) {
    // spawnWorkerProcess reports `worker exited (CODE) before it ran:` and the worker's output.
    const message = err instanceof Error ? err.message : String(err);
    const code = /worker exited \((\w+)\)/.exec(message)?.[1];
    const output = message.split('\n').slice(1).filter((l) => l.trim() !== '');
    result.details.push(`the worker exited ${code ?? '?'} in ${((Date.now() - started) / 1000).toFixed(1)} s: "${(output.at(-1) ?? '').slice(0, 200)}"`);
    if (code === undefined || code === '0') result.problems.push(`the worker did not exit non-zero: ${message.slice(0, 200)}`);
    if (!output.some((l) => l.includes(file) || /mcp\.json/i.test(l))) result.problems.push('its output does not name the file');
  }
  return result;
}

async function cliEdges(rig: ScenarioRig, root: string): Promise<FaultResult[]> {
  const unknown = { ...faultResult('bad-input', 'unknown conversation id (CLI and library)'), runs: 1 };
  const id = `no-such-conversation-${rig.run}`;
  for (const args of [['send', id, 'hello'], ['history', id], ['status', id], ['end', id]]) {
    checkCliError(`mcp-host ${args[0] ?? ''} <unknown id>`, await runCliProcess(args, rig.cliEnv, root), /no conversation with id/, unknown);
  }
  await mustFail('ConversationClient.send(<unknown id>)', () => rig.client.conversations.send(id, 'hello'), unknown);
  const bad = { ...faultResult('bad-input', 'bad mcp-host arguments'), runs: 1 };
  const cases: Array<[string[], RegExp]> = [
    [['frobnicate'], /unknown command/],
    [['send', 'only-an-id'], /expected ID MESSAGE/],
    [['start', '--max-tokens', 'lots', 'hi'], /--max-tokens must be a positive integer/],
    [['start', '--no-such-flag', 'hi'], /no-such-flag/],
    [['start', '--context', 'forget_everything', 'hi'], /context/],
  ];
  for (const [args, expected] of cases) checkCliError(`mcp-host ${args.join(' ')}`, await runCliProcess(args, rig.cliEnv, root), expected, bad);
  return [unknown, bad];
}

/** Scenario 6. */
export const badInput: ChaosScenario = {
  name: 'bad-input',
  run: async (context) => {
    context.log('bad input at the edges');
    const rig = await startScenarioRig(context, 'edge', {}, { ...context.profile.shape, turns: 3, rounds: [1, 2] });
    const empty = faultResult('bad-input', 'empty user message between two good turns');
    const big = faultResult('bad-input', `a ${BIG_MESSAGE_BYTES / 2 ** 20} MB user message (above the 2 MB payload limit) between two good turns`);
    const bigText = randomBytes((BIG_MESSAGE_BYTES * 3) / 4).toString('base64');
    // Conversation 1 gets the empty messages before its second turn, conversation 2 the big one.
    const edges: Record<number, (c: WorkloadConversation) => Promise<void>> = {
      1: async (c) => {
        await mustFail("ConversationClient.send(id, '')", () => rig.client.conversations.send(c.id, ''), empty);
        await mustFail("ConversationClient.post(id, '   ')", () => rig.client.conversations.post(c.id, '   '), empty);
        checkCliError("mcp-host send <id> ''", await runCliProcess(['send', c.id, ''], rig.cliEnv, context.workerRoot), /empty/, empty);
      },
      2: async (c) => {
        await mustFail('ConversationClient.send(id, <3 MB>)', () => rig.client.conversations.send(c.id, bigText), big);
        await mustFail('ConversationClient.post(id, <3 MB>)', () => rig.client.conversations.post(c.id, bigText), big);
      },
    };
    const workload = rig.workload({
      concurrency: 2,
      beforeTurn: async (c, turn) => {
        if (turn === 2) await edges[c.number]?.(c);
      },
    });
    await workload.runCount(2);
    const cli = await cliEdges(rig, context.workerRoot);
    const config = await malformedConfig(context, rig);
    // Nothing lost: both conversations must still hold exactly their planned turns.
    const verdicts = await rig.finish(workload, faultResult('bad-input', 'the conversations'));
    [empty, big].forEach((result, i) => {
      const verdict = verdicts[i];
      if (!verdict) return;
      Object.assign(result, { runs: 1, conversations: 1, exact: verdict.exact ? 1 : 0, lost: verdict.lost, duplicated: verdict.duplicated });
      result.problems.push(...verdict.problems);
      result.details.push(`the conversation then took ${verdict.conversation.turns.length} turns, all answered as planned: ${verdict.problems.length === 0 ? 'yes' : 'no'}`);
    });
    return [config, empty, big, ...cli];
  },
};
