/**
 * Reads payloads a follower gets raw from the server (history events, heartbeat details) with the
 * client's data converter: codecs (gzip, and encryption where configured) then the payload
 * converter. A payload this client cannot read (one kept in the external payload store, which only
 * the SDK's own calls resolve; a key it lacks) reads as undefined: progress is shown without it.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

type Payload = temporal.api.common.v1.IPayload;
type Failure = temporal.api.failure.v1.IFailure;

/** The first value of `payloads`, decoded; undefined when absent or unreadable. */
export async function decodeFirst(client: Client, payloads: readonly Payload[] | null | undefined): Promise<unknown> {
  const first = payloads?.[0];
  if (!first) return undefined;
  const converter = client.options.loadedDataConverter;
  try {
    let decoded = [first];
    // Codecs encode in order, so they decode in reverse.
    for (const codec of [...converter.payloadCodecs].reverse()) decoded = await codec.decode(decoded);
    const [payload] = decoded;
    return payload ? converter.payloadConverter.fromPayload(payload) : undefined;
  } catch {
    return undefined;
  }
}

/** A failure's message, from its encoded attributes when a codec moved it there. */
export async function failureMessage(client: Client, failure: Failure | null | undefined): Promise<string | undefined> {
  if (!failure) return undefined;
  if (failure.encodedAttributes) {
    const attributes = await decodeFirst(client, [failure.encodedAttributes]);
    if (typeof attributes === 'object' && attributes !== null && 'message' in attributes && typeof attributes.message === 'string') return attributes.message;
  }
  // A timeout's own message is empty: its kind says it.
  const timeout = failure.timeoutFailureInfo?.timeoutType;
  if (!failure.message && timeout !== undefined && timeout !== null) {
    return `timed out (${temporal.api.enums.v1.TimeoutType[timeout] ?? 'timeout'})`;
  }
  return failure.message ?? undefined;
}
