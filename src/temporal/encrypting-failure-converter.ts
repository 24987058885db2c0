/**
 * The failure converter of this project's data converter (loaded by path, see data-converter.ts):
 * Temporal's default, except that while payload encryption is on (`MCP_HOST_ENCRYPTION_KEY` set)
 * a failure's message and stack trace are moved into its `encodedAttributes` payload, which the
 * codecs then encrypt. A failure's text is not a payload, so without this an error that quotes the
 * conversation (an API error naming a message, a tool's error echoing its arguments) would stay
 * readable in the history; the history then says `Encoded failure`. Decoding reads either form.
 *
 * Deliberately free of Node built-ins: a worker that bundles its workflows at start-up bundles this
 * module too, and in the workflow sandbox (no `process`) it is the default converter.
 */
import { DefaultFailureConverter, type FailureConverter, type PayloadConverter, type ProtoFailure, type SerializationContext } from '@temporalio/common';

const plain = new DefaultFailureConverter();
const encoded = new DefaultFailureConverter({ encodeCommonAttributes: true });

/** Whether this process encrypts new payloads (the key's validity is checked at start-up elsewhere). */
function encrypting(): boolean {
  try {
    const key = typeof process === 'undefined' ? undefined : process.env.MCP_HOST_ENCRYPTION_KEY;
    return key !== undefined && key.trim() !== '';
  } catch {
    return false;
  }
}

/** The converter the SDK loads from `failureConverterPath` (it looks for this export name). */
export const failureConverter: FailureConverter = {
  errorToFailure(err: unknown, payloadConverter: PayloadConverter, context?: SerializationContext): ProtoFailure {
    return (encrypting() ? encoded : plain).errorToFailure(err, payloadConverter, context);
  },
  failureToError(failure: ProtoFailure, payloadConverter: PayloadConverter, context?: SerializationContext): Error {
    return plain.failureToError(failure, payloadConverter, context);
  },
};
