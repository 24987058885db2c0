/**
 * Signatures of the thinking blocks the fake Messages API writes. The real API signs each thinking
 * block so that it can tell a block passed back unchanged from one that was edited (400 "Invalid
 * `signature` in `thinking` block"); the fake's signature is a digest of the block's text under a
 * prefix of its own, so it can make the same check, with no state, for every block it signed (the
 * offline stand-in's, and scripted ones signed with {@link signThinking}). A signature without the
 * prefix is one the fake cannot check (a script's own): it only has to be there.
 */
import { createHash } from 'node:crypto';

/** Starts every signature the fake makes. */
const PREFIX = 'fake-thinking-sig.v1.';

/** The fake's signature of a thinking block with this `thinking` text. */
export function signThinking(thinking: string): string {
  return `${PREFIX}${createHash('sha256').update(thinking, 'utf8').digest('base64url')}`;
}

/** Whether `signature` fits `thinking`: empty never does; one of the fake's must match the text. */
export function signatureFits(thinking: string, signature: string): boolean {
  if (signature === '') return false;
  return !signature.startsWith(PREFIX) || signature === signThinking(thinking);
}
