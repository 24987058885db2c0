import type { HistorySize } from './history-size';
import type { TurnProbe } from './scripted-turn';

/**
 * The designs the benchmark compares: this host's; the naive one as commonly written (the SDK's
 * default data converter); the naive one with this project's gzip codec.
 */
export type Design = 'ours' | 'naive' | 'naive-gzip';

/** One measured run: one user turn of `calls` model calls in one design. */
export interface RunOutcome extends HistorySize {
  design: Design;
  /** Model calls the turn was scripted for. */
  calls: number;
  /** `completed`, or why the run did not complete (e.g. the server terminated it at its history limit). */
  ended: string;
  probe: TurnProbe;
  ms: number;
}
