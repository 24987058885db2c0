/**
 * What a user turn may be. The text is recorded in Temporal's history as the update's or signal's
 * input, and the server refuses any payload over 2 MB: an update that large is accepted by the
 * client call but can never be written, and the workflow task that tries fails again and again,
 * wedging the conversation. So turns are checked before they are sent (client) and before they
 * are accepted (the update's validator, which records nothing when it refuses). Pure: the
 * workflow imports it.
 */

/** The largest user message, in UTF-8 bytes: half of Temporal's payload limit, leaving room for the rest of the payload. */
export const MAX_USER_MESSAGE_BYTES = 1024 * 1024;

/** UTF-8 length without TextEncoder (not every sandbox has it). */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair: one 4-byte code point
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Why `text` cannot be a user turn, in one line; undefined when it can. */
export function userMessageProblem(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.trim() === '') return 'the message is empty';
  const bytes = utf8Bytes(text);
  if (bytes > MAX_USER_MESSAGE_BYTES) {
    return `the message is ${(bytes / (1024 * 1024)).toFixed(1)} MiB; a turn takes at most 1 MiB (Temporal refuses payloads over 2 MB): send a shorter message`;
  }
  return undefined;
}
