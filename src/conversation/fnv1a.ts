/**
 * FNV-1a, 32-bit, over a string's UTF-16 code units: the project's one non-cryptographic hash
 * (the rolling transcript digest, the suffixes of shortened tool names). Stable across processes
 * and versions, and pure (no Node built-ins), so the workflow sandbox runs it as activities do.
 */

/** The standard 32-bit offset basis. */
export const FNV1A_BASIS = 0x811c9dc5;

const PRIME = 0x01000193;

/**
 * `Math.imul`, looked up once. Inside the workflow sandbox (a `node:vm` context) every read of a
 * global such as `Math` goes through the context's interceptors: in a loop over a message's
 * characters that made hashing 1,500 characters cost about 0.6 ms instead of 5 µs, on the workflow
 * thread (docs/BENCHMARKS.md, "The digest's global lookups").
 */
const imul = Math.imul;

/** The hash of `text` from offset basis `basis`, unsigned. */
export function fnv1a(text: string, basis: number = FNV1A_BASIS): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) hash = imul(hash ^ text.charCodeAt(i), PRIME);
  return hash >>> 0;
}

/** Two hashes of `text` at once, from offset bases `basisA` and `basisB`, in one pass over it. */
export function fnv1aPair(text: string, basisA: number, basisB: number): [number, number] {
  let a = basisA >>> 0;
  let b = basisB >>> 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = imul(a ^ unit, PRIME);
    b = imul(b ^ unit, PRIME);
  }
  return [a >>> 0, b >>> 0];
}

/** An unsigned 32-bit number as 8 hex digits. */
export function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}
