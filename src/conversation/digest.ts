/**
 * A rolling digest over the messages array, identical in the workflow and in activities.
 * Not cryptographic: it proves that the messages an activity assembled from its cache and from
 * queries are exactly the ones the workflow holds, without sending them in the activity input.
 * Pure (no Node built-ins), so the workflow sandbox can run it.
 */

import { FNV1A_BASIS, fnv1aPair, hex8 } from './fnv1a';

const EMPTY = '0000000000000000';

/** The digest of an empty transcript. */
export const EMPTY_DIGEST: string = EMPTY;

/** Extends `previous` by one message: digest(m0..mn) = step(digest(m0..mn-1), mn). */
export function extendDigest(previous: string, message: unknown): string {
  const [a, b] = fnv1aPair(`${previous}|${JSON.stringify(message)}`, FNV1A_BASIS, 0x050c5d1f);
  return hex8(a) + hex8(b);
}

/** The digest of a whole array, from the start. */
export function digestOf(messages: readonly unknown[], from: string = EMPTY): string {
  return messages.reduce<string>((digest, message) => extendDigest(digest, message), from);
}
