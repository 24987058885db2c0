/**
 * `npm run bench`: what durability costs, in one run, each figure a ratio to a baseline measured in
 * the same run (medians of several runs; designs alternate so the machine's load falls on all):
 *
 * 1. ms per round: the plain loop, Temporal's floor (empty activities) with and without eager
 *    activity dispatch, and the host (bench/perf/rounds.ts);
 * 2. throughput at 1, 10, 50, 200 concurrent conversations against the floor (bench/perf/throughput.ts);
 * 3. start-up: worker ready time, `mcp-host send` end to end (bench/perf/startup.ts);
 * 4. history bytes per model call against the naive design (bench/history-growth.ts);
 * 5. tool definitions per request and tokens over 10 rounds, full list against tool search, at 50,
 *    200 and 500 tools (bench/tool-search.ts);
 * 6. live text: how late a follower shows the words of an answer streamed one every 100 ms (p50,
 *    p90, max, the first word), the server's requests per follower per second with 1, 10 and 100
 *    followers, heartbeats per call and the turn's history bytes; the embedded default (heartbeats)
 *    and the broker (Redis: BENCH_LIVE_URL, else a redis-server of its own when one is installed)
 *    in the same run, and with BENCH_BEFORE_ROOT that tree's default (bench/perf/live-text.ts).
 *
 *   npm run bench                      # the full profile (about 10–15 min on 2 cores), writes docs/BENCHMARKS.md
 *   npm run bench -- --quick           # a fast check (about 3 min), printed only
 *   npm run bench -- --only=rounds,startup [--write]
 *   npm run bench -- --only=tool-search      # the tool-search figures (instant)
 *   npm run bench -- --only=throughput --levels=200:2   # some concurrencies (CONCURRENCY:BATCHES)
 *   npm run bench -- --quick --only=live-text            # the live-text figures (about 3 min; full profile about 6)
 *   npm run bench -- --quick --only=live-text --followers=1,10   # some follower counts
 *   BENCH_LIVE_URL=redis://127.0.0.1:6379 npm run bench -- --only=live-text   # that broker (default: a redis-server of its own; off: none)
 *   BENCH_BEFORE_ROOT=/tmp/before npm run bench -- --only=live-text   # …and another tree's default beside
 *
 * Progress goes to stderr; the report (Markdown) to stdout, and with the full profile (or --write)
 * into docs/BENCHMARKS.md between its `npm run bench` markers.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { historyGrowth } from './history-growth';
import { toolSearchReport } from './tool-search';
import { startPerfEnv } from './perf/perf-env';
import { roundsReport, runRounds } from './perf/rounds';
import { runStartup, startupReport } from './perf/startup';
import { runThroughput, throughputReport } from './perf/throughput';
import { liveTextReport, runLiveText } from './perf/live-text';

const REPO_ROOT = path.resolve(__dirname, '..');
const DOC = path.join(REPO_ROOT, 'docs/BENCHMARKS.md');
const BEGIN = '<!-- npm run bench: generated from here -->';
const END = '<!-- npm run bench: generated up to here -->';

const SECTIONS = ['rounds', 'throughput', 'startup', 'history', 'tool-search', 'live-text'] as const;
type Section = (typeof SECTIONS)[number];

interface Profile {
  name: 'full' | 'quick';
  rounds: { modelCalls: number; repeat: number };
  /** Concurrency → batches per design. */
  throughput: { levels: Array<[number, number]> };
  startup: { repeat: number };
  history: { sizes: number[]; repeat: number };
  /** Measured turns per design; repetitions of the follower levels; the follower levels. */
  liveText: { turns: number; loadRepeat: number; followerLevels: number[] };
}

const FULL: Profile = {
  name: 'full',
  // 11 turns per design: single turns of one design spread by a third and more (e.g. 32.7–43.8 ms per round).
  rounds: { modelCalls: 10, repeat: 11 },
  // 200 conversations: 5 batches, as the ratio at that level moved from 1.13x to 1.62x between single batches of one
  // hour, and from 1.25x to 1.60x between runs of 3 batches (2026-12-06).
  throughput: { levels: [[1, 3], [10, 3], [50, 2], [200, 5]] },
  startup: { repeat: 5 },
  // Recorded bytes do not depend on timing (the spread between repetitions was 0.2%): one run each.
  history: { sizes: [50, 100], repeat: 1 },
  liveText: { turns: 5, loadRepeat: 3, followerLevels: [1, 10, 100] },
};
const QUICK: Profile = {
  name: 'quick',
  rounds: { modelCalls: 10, repeat: 3 },
  throughput: { levels: [[1, 1], [10, 1], [50, 1]] },
  startup: { repeat: 3 },
  history: { sizes: [20, 40], repeat: 1 },
  liveText: { turns: 2, loadRepeat: 1, followerLevels: [1, 10, 100] },
};

/** `--levels=200:2,50:1`: the throughput section at these concurrencies, with these batches each. */
function levelsArg(args: string[]): Array<[number, number]> | undefined {
  const value = args.find((a) => a.startsWith('--levels='))?.slice('--levels='.length);
  if (value === undefined) return undefined;
  return value.split(',').map((pair) => {
    const [c, b] = pair.split(':').map(Number);
    if (!Number.isInteger(c) || !Number.isInteger(b ?? 1) || (c ?? 0) < 1) throw new Error(`--levels: "${pair}" is not CONCURRENCY:BATCHES`);
    return [c as number, b ?? 1];
  });
}

/** `--followers=1,10`: the live-text section at these follower counts. */
function followersArg(args: string[]): number[] | undefined {
  const value = args.find((a) => a.startsWith('--followers='))?.slice('--followers='.length);
  if (value === undefined) return undefined;
  return value.split(',').map((n) => {
    const count = Number(n);
    if (!Number.isInteger(count) || count < 1) throw new Error(`--followers: "${n}" is not a count of followers`);
    return count;
  });
}

function load(): string {
  return os.loadavg().map((l) => l.toFixed(1)).join(' / ');
}

function versionOf(pkg: string): string {
  try {
    const file = path.join(REPO_ROOT, 'node_modules', pkg, 'package.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'bench'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${head} + uncommitted changes in src/ or bench/` : head;
  } catch {
    return '?';
  }
}

function writeDoc(report: string[]): void {
  const doc = fs.readFileSync(DOC, 'utf8');
  const block = `${BEGIN}\n${report.join('\n')}\n${END}`;
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  const next =
    begin >= 0 && end > begin
      ? `${doc.slice(0, begin)}${block}${doc.slice(end + END.length)}`
      : doc.replace(/^(# Benchmarks\n)/, `$1\n${block}\n`);
  fs.writeFileSync(DOC, next);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const profile = args.includes('--quick') ? QUICK : FULL;
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
  const sections: Section[] = only ? SECTIONS.filter((s) => only.includes(s)) : [...SECTIONS];
  const write = args.includes('--write') || (profile.name === 'full' && !only);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const started = Date.now();
  const loadStart = load();
  process.stderr.write(`bench (${profile.name}): ${sections.join(', ')}; load average ${loadStart} on ${os.cpus().length} cores\n`);
  let tag = 1;
  const nextTag = (): number => tag++;
  const parts: string[][] = [];
  // Each section's Markdown also goes to stderr when it is done: a later failure does not lose it.
  const push = (part: string[]): void => {
    parts.push(part);
    process.stderr.write(`${part.join('\n')}\n\n`);
  };
  const loads: string[] = [];
  let failed = false;
  let serverVersions = '';
  // Section 6 runs on the perf servers, but its part comes last, after sections 4 and 5.
  let livePart: string[] | undefined;
  const perfSections = sections.filter((s) => s !== 'history' && s !== 'tool-search');
  if (perfSections.length > 0) {
    const env = await startPerfEnv();
    serverVersions = env.versions;
    try {
      if (sections.includes('rounds')) {
        const before = load();
        const result = await runRounds(env, { ...profile.rounds, nextTag });
        loads.push(`rounds ${before} → ${load()}`);
        push(['### 1. Per round: the host against Temporal\'s floor', '', ...roundsReport(result)]);
      }
      if (sections.includes('throughput')) {
        const before = load();
        const levels = await runThroughput(env, { levels: levelsArg(args) ?? profile.throughput.levels, nextTag });
        loads.push(`throughput ${before} → ${load()}`);
        push(['### 2. Throughput: concurrent conversations on one worker', '', ...throughputReport(levels, env.before?.label)]);
      }
      if (sections.includes('startup')) {
        const before = load();
        // A start-up that fails (e.g. a dist/ that does not start) is reported; the other sections stand.
        const lines = await runStartup(env, { ...profile.startup, nextTag }).then(startupReport, (err: unknown) => {
          failed = true;
          return [`FAILED: ${err instanceof Error ? err.message : String(err)}`];
        });
        loads.push(`start-up ${before} → ${load()}`);
        push(['### 3. Start-up', '', ...lines]);
      }
      if (sections.includes('live-text')) {
        const before = load();
        const result = await runLiveText(env, { ...profile.liveText, followerLevels: followersArg(args) ?? profile.liveText.followerLevels, nextTag });
        loads.push(`live text ${before} → ${load()}`);
        livePart = ['### 6. Live text: the model\'s words on a follower\'s screen', '', ...liveTextReport(result)];
        process.stderr.write(`${livePart.join('\n')}\n\n`);
      }
    } finally {
      await env.stop();
    }
  }
  if (sections.includes('history')) {
    const before = load();
    const history = await historyGrowth(profile.history.sizes, profile.history.repeat);
    loads.push(`history ${before} → ${load()}`);
    failed ||= history.failed;
    push(['### 4. History bytes per model call', '', ...history.report]);
  }
  if (sections.includes('tool-search')) {
    // Pure computation over the host's request builder: the same figures on any machine.
    push(['### 5. Tool definitions: the full list against tool search', '', ...toolSearchReport()]);
  }
  if (livePart) parts.push(livePart);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const cpu = os.cpus()[0]?.model.trim() ?? '?';
  const report = [
    `## Generated by \`npm run bench\`${profile.name === 'quick' ? ' -- --quick' : ''}`,
    '',
    `Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC at ${commit()}, ${profile.name} profile, ${minutes} min.` +
      (process.env.BENCH_HOST_ROOT ? ` The host measured: src/ of ${process.env.BENCH_HOST_ROOT} (BENCH_HOST_ROOT).` : '') +
      (process.env.BENCH_BEFORE_ROOT ? ` "Before": src/ of ${process.env.BENCH_BEFORE_ROOT} (BENCH_BEFORE_ROOT).` : '') +
      ' Start-up runs this tree\'s dist/ and CLI.',
    `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GB RAM, ${os.platform()} ${os.release()} ${os.arch()}; ` +
      'shared with other jobs, so only ratios within this run compare.',
    `Load average (1 / 5 / 15 min): ${loadStart} at the start, ${load()} at the end; per section ${loads.join('; ')}.`,
    `Versions: Node ${process.version}, @temporalio/* ${versionOf('@temporalio/worker')}, @anthropic-ai/sdk ${versionOf('@anthropic-ai/sdk')}, ` +
      `@modelcontextprotocol/client ${versionOf('@modelcontextprotocol/client')}${serverVersions ? `, ${serverVersions}` : ''}.`,
    '',
    ...parts.flatMap((part) => [...part, '']),
  ];
  process.stdout.write(`${report.join('\n')}\n`);
  if (write) {
    writeDoc(report);
    process.stderr.write(`bench: written to ${path.relative(REPO_ROOT, DOC)}\n`);
  }
  if (failed) {
    console.error('bench: FAILED (see the start-up section or the history notes)');
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
