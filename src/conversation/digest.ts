/**
 * A rolling digest over the messages array, identical in the workflow and in activities.
 * Not cryptographic: it proves that the messages an activity assembled from its cache and from
 * queries are exactly the ones the workflow holds, without sending them in the activity input.
 * Pure (no Node built-ins), so the workflow sandbox can run it.
 */

const EMPTY = '0000000000000000';

/**
 * `Math.imul`, looked up once. Inside the workflow sandbox (a `node:vm` context) every read of a
 * global such as `Math` goes through the context's interceptors: in the loop below that made
 * hashing a 1,500-character message cost about 0.6 ms instead of 5 µs, on the workflow thread,
 * for every message appended (docs/BENCHMARKS.md, "The digest's global lookups").
 */
const imul = Math.imul;

/**
 * FNV-1a over UTF-16 code units, 32-bit, twice at once: with offset bases `basisA` and `basisB`,
 * in one pass over the text (the workflow runs this for every message it appends).
 */
function fnv1aPair(text: string, basisA: number, basisB: number): [number, number] {
  let a = basisA >>> 0;
  let b = basisB >>> 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = imul(a ^ unit, 0x01000193);
    b = imul(b ^ unit, 0x01000193);
  }
  return [a >>> 0, b >>> 0];
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/** The digest of an empty transcript. */
export const EMPTY_DIGEST: string = EMPTY;

/** Extends `previous` by one message: digest(m0..mn) = step(digest(m0..mn-1), mn). */
export function extendDigest(previous: string, message: unknown): string {
  const [a, b] = fnv1aPair(`${previous}|${JSON.stringify(message)}`, 0x811c9dc5, 0x050c5d1f);
  return hex8(a) + hex8(b);
}

/** The digest of a whole array, from the start. */
export function digestOf(messages: readonly unknown[], from: string = EMPTY): string {
  return messages.reduce<string>((digest, message) => extendDigest(digest, message), from);
}
