/**
 * `npm run chaos`: runs the fault scenarios against the compiled host (this repo's dist/, or
 * another tree's with `--worker-root`) on a Temporal dev server of its own, stores the figures in
 * docs/reliability/<label>.json, renders docs/RELIABILITY.md from every stored run, and exits
 * non-zero when any invariant broke (a message lost or duplicated, a transcript not exact, a
 * history that disagrees, a process left behind), so CI can run the quick profile.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../test/support/repo';
import { parseChaosArgs } from './args';
import { faultResult, outcomeOf, type FaultResult } from './report/fault-result';
import { renderReport } from './report/render-report';
import { loadAverage, runEnvironment } from './report/run-environment';
import { mergedSuiteResult, storedSuiteResults, storeSuiteResult } from './report/suite-result';
import type { ChaosScenario, ScenarioContext } from './scenario';
import { badInput } from './scenarios/bad-input';
import { clusterFaults } from './scenarios/cluster-faults';
import { load } from './scenarios/load';
import { mcpFaults } from './scenarios/mcp-faults';
import { mcpTasks } from './scenarios/mcp-tasks';
import { modelFaults } from './scenarios/model-faults';
import { secrets } from './scenarios/secrets';
import { serverRestart } from './scenarios/server-restart';
import { twoWorkers } from './scenarios/two-workers';
import { workerKill } from './scenarios/worker-kill';
import { snapshotBuild } from './support/build-snapshot';
import { startChaosTemporal } from './support/chaos-temporal';
import { leftoverProcesses } from './support/process-leaks';

/**
 * Every scenario, in the order they run. Scenarios in one group run side by side, each on its own
 * task queue and workers: the kills (both cadences, and the pair of workers), whose recoveries are
 * set by Temporal's timeouts; the functional ones, whose figures are not timings (the MCP tasks'
 * figure is its re-executions, which must be 0; its recoveries are only indicative). The server
 * restart must run alone (it stops everyone's server), and so does the load, which measures one
 * worker's memory and latency. The cluster faults run on a cluster of their own, but alone all the
 * same: their recovery times are the server's and PostgreSQL's, and worth little on a machine busy
 * with other scenarios. Secrets last, so it reads every history the others left (on the dev server).
 */
const PLAN: ChaosScenario[][] = [[workerKill, twoWorkers], [serverRestart], [modelFaults, mcpFaults, mcpTasks, badInput], [load], [clusterFaults], [secrets]];
const SCENARIOS = PLAN.flat();

const RESULTS_DIR = path.join(REPO_ROOT, 'docs/reliability');
const REPORT_FILE = path.join(REPO_ROOT, 'docs/RELIABILITY.md');

function log(line: string): void {
  process.stderr.write(`[chaos] ${line}\n`);
}

async function runScenario(scenario: ChaosScenario, context: ScenarioContext): Promise<FaultResult[]> {
  try {
    return await scenario.run(context);
  } catch (err) {
    const failed = faultResult(scenario.name, `scenario ${scenario.name}`);
    failed.problems.push(`the scenario itself failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return [failed];
  }
}

async function main(): Promise<number> {
  const args = parseChaosArgs(process.argv.slice(2), SCENARIOS.map((s) => s.name));
  if (args.reportOnly) {
    fs.writeFileSync(REPORT_FILE, renderReport(storedSuiteResults(RESULTS_DIR)));
    log(`wrote ${path.relative(REPO_ROOT, REPORT_FILE)} from the stored runs`);
    return 0;
  }
  const started = Date.now();
  const loadAtStart = loadAverage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-chaos-'));
  log(`${args.profile.name} profile; build under test: ${args.workerRoot ?? REPO_ROOT}; load average ${loadAtStart}; files in ${dir}`);
  // The dev server's warnings (slow calls under load, cancelled contexts at a kill) go to a file, kept when the run fails.
  const temporalLog = path.join(dir, 'temporal.log');
  const temporal = await startChaosTemporal(path.join(dir, 'temporal'), (line) => fs.appendFileSync(temporalLog, `${line}\n`));
  const faults: FaultResult[] = [];
  try {
    const workerRoot = snapshotBuild(args.workerRoot ?? REPO_ROOT, dir);
    const context: ScenarioContext = { profile: args.profile, workerRoot, temporal, dir, log };
    for (const group of PLAN) {
      const chosen = group.filter((s) => args.only.length === 0 || args.only.includes(s.name));
      if (chosen.length === 0) continue;
      const groupStarted = Date.now();
      // runScenario never rejects: a failed scenario is a failed result, so one cannot orphan another.
      for (const results of await Promise.all(chosen.map((scenario) => runScenario(scenario, context)))) faults.push(...results);
      log(`${chosen.map((s) => s.name).join(' + ')}: ${((Date.now() - groupStarted) / 1000).toFixed(0)} s`);
    }
  } finally {
    await temporal.stop();
  }
  const leftovers = await leftoverProcesses(dir);
  if (leftovers.length > 0) {
    const suite = faultResult('main', 'the whole run');
    suite.problems.push(...leftovers.map((l) => `left behind: ${l}`));
    faults.push(suite);
  }
  const result = {
    label: args.label ?? 'unstored',
    profile: args.profile.name,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    environment: runEnvironment(temporal.cliPath, args.workerRoot),
    loadAverage: { start: loadAtStart, end: loadAverage() },
    durationMs: Date.now() - started,
    faults,
  };
  for (const fault of faults) log(`${outcomeOf(fault)}: ${fault.fault}${fault.problems.length > 0 ? `\n  ${fault.problems.join('\n  ')}` : ''}`);
  if (args.label !== undefined) {
    // Some scenarios only, into a stored run: their rows replace that run's.
    const stored = args.only.length > 0 ? mergedSuiteResult(RESULTS_DIR, result, args.only) : result;
    log(`stored ${path.relative(REPO_ROOT, storeSuiteResult(RESULTS_DIR, stored))}`);
    fs.writeFileSync(REPORT_FILE, renderReport(storedSuiteResults(RESULTS_DIR)));
    log(`wrote ${path.relative(REPO_ROOT, REPORT_FILE)}`);
  } else {
    process.stdout.write(`${renderReport([result])}\n`);
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; load average ${result.loadAverage.end}`);
  const passed = faults.every((f) => outcomeOf(f) === 'pass');
  if (passed) fs.rmSync(dir, { recursive: true, force: true });
  else log(`kept ${dir} (call logs, mcp.json files, the dev server's log and database) for a look`);
  return passed ? 0 : 1;
}

// Ctrl-C: exit through process.exit, whose handlers stop the dev server and kill the workers' groups.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(err instanceof Error ? err.message : String(err));
    process.exit(2);
  },
);
