import { setTimeout as sleep } from 'node:timers/promises';
import type { MessagesApiAnswer } from '../offline';
import type { RecordedRequest } from './recorded-request';
import type { ScriptStep } from './script-step';

/** `respond` steps may return further `respond` steps; this many in a row means a loop in a test. */
const MAX_RESPOND_DEPTH = 10;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A 500 that says what went wrong with the script, loud enough to read in a failed test's log. */
function scriptError(message: string): MessagesApiAnswer {
  return { kind: 'error', status: 500, errorType: 'api_error', message: `fake Messages API: ${message}` };
}

/**
 * Turns one script step into the answer the server sends: follows `respond` steps, then waits the
 * step's `delayMs` (cut short when the server closes: `signal`).
 */
export async function answerStep(step: ScriptStep, request: RecordedRequest, signal: AbortSignal): Promise<MessagesApiAnswer> {
  let current = step;
  for (let depth = 0; current.kind === 'respond'; depth++) {
    if (depth >= MAX_RESPOND_DEPTH) {
      return scriptError(`${MAX_RESPOND_DEPTH} respond steps in a row; is a respond function returning itself?`);
    }
    try {
      current = await current.respond(request);
    } catch (error) {
      return scriptError(`a respond step threw: ${describe(error)}`);
    }
  }
  const { delayMs, ...answer } = current;
  if (delayMs !== undefined && delayMs > 0) await sleep(delayMs, undefined, { signal });
  return answer;
}

/** The answer to a request that found the script empty: a loud 500 naming the request. */
export function scriptRanOut(requestNumber: number): MessagesApiAnswer {
  return scriptError(
    `the script ran out: request #${requestNumber} found no scripted step (enqueue one more step per expected request)`,
  );
}
