import { startMessagesApiServer, type MessagesApiServer } from './messages-api-server';
import { respondByRules } from './rules-responder';

/** How to start the stand-in. */
export interface OfflineStandInOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** One line per request, to show what the stand-in did. */
  log?: (line: string) => void;
}

/**
 * The offline stand-in for Claude that `npm start` runs without an API key: the fake Messages API
 * answering by fixed rules ({@link respondByRules}), every answer labelled as not Claude's.
 * Requests are validated like the real API's, so the host's requests stay honest offline too.
 */
export function startOfflineStandIn(options: OfflineStandInOptions = {}): Promise<MessagesApiServer> {
  return startMessagesApiServer({
    respond: (request) => respondByRules(request.body),
    label: 'rules',
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.log !== undefined ? { log: options.log } : {}),
  });
}
