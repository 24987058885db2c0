/** Tags are this many digits, so every turn's user message has the same length in both designs. */
const TAG_DIGITS = 4;
const TAG = /\[bench #(\d+)\]/;

/**
 * The user message that opens a benchmark turn. The tag lets the fake Messages API tell turns that
 * run at the same time apart.
 */
export function userText(tag: number): string {
  return `Compare the recent hourly reports of the west-coast and northern stations and tell me whether a front passed. [bench #${String(tag).padStart(TAG_DIGITS, '0')}]`;
}

/** The tag of a user message written by {@link userText}, or undefined. */
export function tagOf(text: string): number | undefined {
  const match = TAG.exec(text);
  return match?.[1] !== undefined ? Number(match[1]) : undefined;
}

/** How long a turn of `calls` model calls may take before the benchmark calls it stuck. */
export function runDeadlineMs(calls: number): number {
  return 180_000 + calls * 3_000;
}
