/**
 * The person at the keyboard, for the conformance client: where a conversation would wait for the
 * user's answer to a server's request (src/workflows/server-input.ts), this answers at once, as a
 * user who accepts every form as the server pre-filled it: the schema's defaults, applied by the
 * host as it applies them to every accepted form (SEP-1034); every URL visit is accepted too. A
 * completion (sampling) is refused, since no model plays Claude here.
 */
import { withElicitationDefaults } from '../../src/input/elicitation-schema';
import type { ServerInputRequest } from '../../src/input/input-requests';
import { elicitationResponse, samplingRejected, type ServerInputResponse } from '../../src/input/input-responses';

export function standInAnswer(request: ServerInputRequest): ServerInputResponse {
  if (request.method === 'elicitation/create') {
    const params = request.params ?? {};
    const schema = typeof params.requestedSchema === 'object' && params.requestedSchema !== null ? (params.requestedSchema as Record<string, unknown>) : undefined;
    const url = params.mode === 'url';
    return elicitationResponse({ action: 'accept', by: 'user', ...(url ? {} : { content: withElicitationDefaults(schema, {}) }) });
  }
  if (request.method === 'sampling/createMessage') return samplingRejected('no model answers completions in the conformance run');
  return { error: { code: -32601, message: `the host does not answer ${request.method}` } };
}
