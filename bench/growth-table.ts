import type { RunOutcome } from './run-outcome';

/** One table row: the median runs of every design for one turn length. */
export interface GrowthRow {
  calls: number;
  ours: RunOutcome;
  naive: RunOutcome;
  naiveGzip: RunOutcome;
}

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function completed(run: RunOutcome): boolean {
  return run.ended === 'completed';
}

/** How much the history grew since the previous row; only between two completed runs. */
function growth(run: RunOutcome, previous: RunOutcome | undefined): string {
  if (!previous || !completed(run) || !completed(previous)) return '—';
  return `×${(run.bytes / previous.bytes).toFixed(2)}`;
}

function history(run: RunOutcome): string {
  if (completed(run)) return size(run.bytes);
  return `≥ ${size(run.bytes)}: cut off at call ${run.modelCalls}`;
}

/** Against ours, the baseline measured in the same run; "≥" when the run was cut off. */
function ratio(run: RunOutcome, ours: RunOutcome): string {
  if (!completed(ours)) return '—';
  return `${completed(run) ? '' : '≥ '}${(run.bytes / ours.bytes).toFixed(1)}×`;
}

/**
 * The benchmark's table as Markdown (it goes into docs/BENCHMARKS.md as printed). The baseline of
 * every ratio is this host's figure from the same run on the same server.
 */
export function growthTable(rows: readonly GrowthRow[]): string {
  const lines = [
    '| model calls | N growth | ours: history | ours: events | ours: bytes/call | ours: growth | naive: history | naive: growth | naive / ours | naive+gzip: history | naive+gzip: growth | naive+gzip / ours |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  rows.forEach((row, i) => {
    const previous = rows[i - 1];
    const cells = [
      String(row.calls),
      previous ? `×${(row.calls / previous.calls).toFixed(2)}` : '—',
      completed(row.ours) ? size(row.ours.bytes) : 'FAILED (see notes)',
      row.ours.events.toLocaleString('en-US'),
      completed(row.ours) ? Math.round(row.ours.bytes / row.calls).toLocaleString('en-US') : '—',
      growth(row.ours, previous?.ours),
      history(row.naive),
      growth(row.naive, previous?.naive),
      ratio(row.naive, row.ours),
      history(row.naiveGzip),
      growth(row.naiveGzip, previous?.naiveGzip),
      ratio(row.naiveGzip, row.ours),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  });
  return lines.join('\n');
}
