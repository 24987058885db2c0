/**
 * The history section of `npm run bench` (bench/main.ts), also runnable alone
 * (`npx tsx bench/history-growth.ts`): how much history Temporal records for one user turn of N model calls, in this
 * host's design (the Claude activity gets a transcript reference) against the naive design (it
 * gets the whole `messages` array), plain and with this project's gzip codec, all measured in the
 * same run on the same dev server.
 *
 *   npx tsx bench/history-growth.ts                                   # N = 50, 100, 200, 400; median of 3 runs each
 *   BENCH_SIZES=20,40 BENCH_REPEAT=1 npx tsx bench/history-growth.ts  # a quick look
 *
 * Progress lines go to stderr; the report (a Markdown table and notes) is printed last, on stdout.
 * See docs/BENCHMARKS.md for the figures and how to read them.
 */
import * as os from 'node:os';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { benchSettings } from './bench-settings';
import { startBenchRig } from './bench-rig';
import { growthTable, type GrowthRow } from './growth-table';
import { medianRun } from './median-run';
import type { Design, RunOutcome } from './run-outcome';
import { runNaive } from './run-naive';
import { runOurs } from './run-ours';

const DESIGNS: readonly Design[] = ['ours', 'naive', 'naive-gzip'];
const LABEL: Record<Design, string> = { ours: 'ours', naive: 'naive', 'naive-gzip': 'naive+gzip' };

function progress(run: RunOutcome, repetition: number, repeat: number): void {
  const mb = (run.bytes / (1024 * 1024)).toFixed(2);
  const outcome = run.ended === 'completed' ? '' : `  [${run.ended}]`;
  process.stderr.write(
    `  run ${repetition}/${repeat}  N=${String(run.calls).padStart(3)}  ${LABEL[run.design].padEnd(10)}  ${mb.padStart(7)} MB  ` +
      `${String(run.events).padStart(5)} events  ${(run.ms / 1000).toFixed(1).padStart(6)} s${outcome}\n`,
  );
}

function spread(runs: readonly RunOutcome[]): number {
  const bytes = runs.map((run) => run.bytes);
  const median = medianRun(runs).bytes;
  return median === 0 ? 0 : (Math.max(...bytes) - Math.min(...bytes)) / median;
}

function notes(rows: readonly GrowthRow[], all: readonly RunOutcome[], repeat: number): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    for (const median of [row.ours, row.naive, row.naiveGzip]) {
      const label = `${LABEL[median.design]}, ${row.calls} calls`;
      if (median.ended !== 'completed') {
        const cut = all.filter((run) => run.design === median.design && run.calls === row.calls && run.ended !== 'completed').length;
        lines.push(
          `- ${label}: ${cut} of ${repeat} runs did not complete; the median one ended after ` +
            `${median.modelCalls} model calls: "${median.ended}".`,
        );
      }
      if (median.runs > 1) {
        lines.push(
          `- ${label}: the workflow continued as new ${median.runs - 1} time(s) (the server suggested it, or the conversation's continueAsNewAfterEvents); ` +
            `the figure is the sum over its ${median.runs} runs, the largest of which is ${(median.largestRunBytes / (1024 * 1024)).toFixed(2)} MB.`,
        );
      }
    }
  }
  const problems = all.flatMap((run) => run.probe.problems.map((p) => `${LABEL[run.design]} N=${run.calls}: ${p}`));
  lines.push(problems.length === 0
    ? '- Every request to the Messages API carried the whole conversation so far, in every design.'
    : `- Request check FAILED: ${problems.slice(0, 5).join('; ')}`);
  const complete = all.filter((run) => run.ended === 'completed');
  const sameRequests = rows.every((row) => {
    const sizes = new Set(complete.filter((run) => run.calls === row.calls).map((run) => run.probe.lastRequestBytes));
    return sizes.size <= 1;
  });
  const example = complete.at(-1);
  if (example) {
    lines.push(sameRequests
      ? `- The last request of a completed turn had the same size in every design (e.g. ${example.calls} calls: ` +
        `${example.probe.lastRequestBytes.toLocaleString('en-US')} bytes): Claude saw the same conversation; only the history differs.`
      : '- WARNING: the designs sent last requests of different sizes.');
  }
  const toolChars = all.find((run) => run.probe.toolResultChars > 0)?.probe.toolResultChars ?? 0;
  lines.push(`- Each tool result is ${toolChars.toLocaleString('en-US')} characters; each reply is one text block and one tool_use.`);
  const cells = rows.flatMap((row) => [row.ours, row.naive, row.naiveGzip]);
  const worstSpread = Math.max(...cells.map((median) => spread(all.filter((run) => run.design === median.design && run.calls === median.calls))));
  lines.push(`- Largest spread between the repetitions of one cell: ${(worstSpread * 100).toFixed(2)}% of its median.`);
  const serverGap = Math.max(...all.map((run) => Math.abs(run.serverBytes - run.bytes) / run.bytes));
  lines.push(`- The server's own count (historySizeBytes) is within ${(serverGap * 100).toFixed(1)}% of the serialized size.`);
  return lines;
}

/** The history section: its Markdown, and whether a run of our design failed or a request was wrong. */
export async function historyGrowth(sizes: readonly number[], repeat: number): Promise<{ report: string[]; failed: boolean }> {
  const started = Date.now();
  process.stderr.write(`history growth: N = ${sizes.join(', ')}; ${repeat} run(s) each; ${os.cpus().length} cores\n`);
  const rig = await startBenchRig();
  const all: RunOutcome[] = [];
  let nextTag = 1;
  try {
    // Every run of one turn length (each design, each repetition) runs side by side: the fake tells
    // them apart by a tag in the user message, and recorded bytes do not depend on timing.
    for (const calls of sizes) {
      const plan = DESIGNS.flatMap((design) => Array.from({ length: repeat }, (_, i) => ({ design, repetition: i + 1, tag: nextTag++ })));
      const outcomes = await Promise.all(
        plan.map(({ design, tag }) => (design === 'ours' ? runOurs(rig, calls, tag) : runNaive(rig, calls, tag, design))),
      );
      outcomes.forEach((outcome, i) => progress(outcome, plan[i]?.repetition ?? 0, repeat));
      all.push(...outcomes);
    }
  } finally {
    await rig.stop();
  }
  const rows: GrowthRow[] = sizes.map((calls) => {
    const of = (design: Design): RunOutcome =>
      medianRun(all.filter((run) => run.design === design && run.calls === calls));
    return { calls, ours: of('ours'), naive: of('naive'), naiveGzip: of('naive-gzip') };
  });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const report = [
    `Recorded Temporal history of one user turn of N model calls (median of ${repeat} run(s); same dev server, same run).`,
    '',
    growthTable(rows),
    '',
    ...notes(rows, all, repeat),
    `- Took ${minutes} min on ${os.cpus().length} cores (Node ${process.version}, ${os.platform()} ${os.arch()}).`,
  ];
  // Our design failing, or a request not carrying the conversation, makes the figures meaningless.
  const failed = all.some((run) => (run.design === 'ours' && run.ended !== 'completed') || run.probe.problems.length > 0);
  return { report, failed };
}

async function main(): Promise<void> {
  const { sizes, repeat } = benchSettings();
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const { report, failed } = await historyGrowth(sizes, repeat);
  process.stdout.write(`${report.join('\n')}\n`);
  if (failed) {
    console.error('history growth: FAILED (see the notes above)');
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
