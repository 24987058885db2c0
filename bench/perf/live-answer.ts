/**
 * The live-text section's answer and its arithmetic: a streamed answer of {@link LIVE_WORDS} words
 * of the same length, one text delta per word, {@link WORD_GAP_MS} apart (the fake model's
 * `eventGapMs`, which paces every event of the stream); when the model wrote each word, when a
 * follower first showed it, and the delays between the two.
 */
import type { MessageAnswer } from '../../src/offline';

/** Words in the answer. */
export const LIVE_WORDS = 40;
/** The model writes one event (one word) every this many ms. */
export const WORD_GAP_MS = 100;

/** `word-07 `: every word and its space take this many characters, so one delta is one word. */
const WORD_CHARS = 8;

/** The answer's text: `word-01 word-02 … word-40`. */
export const LIVE_TEXT = Array.from({ length: LIVE_WORDS }, (_, i) => `word-${String(i + 1).padStart(2, '0')}`).join(' ');

/** When some of a text was there: ms on the machine's monotonic clock (comparable across its processes), and its length then. */
export type TextMark = readonly [at: number, length: number];

/**
 * Now, in ms on the machine's monotonic clock (`CLOCK_MONOTONIC`, one for all its processes).
 * Not the wall clock: `performance.timeOrigin` is each process's start in wall time, so two
 * processes started either side of a clock step disagree by the step (seen: 21 s).
 */
export function machineNow(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The streamed answer; `written` sees the answer's length each time a word went out. */
export function liveAnswer(written: (mark: TextMark) => void): MessageAnswer {
  let length = 0;
  return {
    kind: 'message',
    stop_reason: 'end_turn',
    content: [{ type: 'text', text: LIVE_TEXT }],
    stream: {
      eventGapMs: WORD_GAP_MS,
      chunkChars: WORD_CHARS,
      onEvent: (event) => {
        const delta = event.data.delta as { type?: string; text?: string } | undefined;
        if (event.data.type !== 'content_block_delta' || delta?.type !== 'text_delta' || delta.text === undefined) return;
        length += delta.text.length;
        written([machineNow(), length]);
      },
    },
  };
}

/** Per word, when its last character was first there (NaN when never). */
export function wordTimes(marks: readonly TextMark[]): number[] {
  return Array.from({ length: LIVE_WORDS }, (_, i) => {
    const end = i * WORD_CHARS + WORD_CHARS - 1;
    return marks.find(([, length]) => length >= end)?.[0] ?? NaN;
  });
}

/** Nearest-rank percentile. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
}

/** How late one follower showed the words of one turn, in ms. */
export interface WordDelays {
  first: number;
  p50: number;
  p90: number;
  max: number;
  /** Words never shown (should be 0: the call's end shows the rest). */
  missing: number;
}

/** The delays from each word's writing (`written`) to its first showing (`shown`). */
export function wordDelays(written: readonly TextMark[], shown: readonly TextMark[]): WordDelays {
  const out = wordTimes(written);
  const seen = wordTimes(shown);
  const delays = out.map((at, i) => (seen[i] ?? NaN) - at);
  const known = delays.filter((d) => Number.isFinite(d));
  return {
    first: delays[0] ?? NaN,
    p50: percentile(known, 0.5),
    p90: percentile(known, 0.9),
    max: known.length > 0 ? Math.max(...known) : NaN,
    missing: delays.length - known.length,
  };
}
