import { respondByRules, startMessagesApiServer } from '../offline';
import { answerStep, scriptRanOut } from './answer-step';
import type { RecordedRequest } from './recorded-request';
import type { ScriptStep } from './script-step';

/** A running fake of `POST /v1/messages`, scripted by a test. */
export interface FakeMessagesApi {
  /** e.g. `http://127.0.0.1:PORT`: the SDK's `baseURL` (it appends `/v1/messages`). */
  readonly url: string;
  /** Every request received, in order, including invalid ones and ones that found no step. */
  readonly requests: RecordedRequest[];
  /** Scripted mode: each request consumes the next step. Rules mode: queued steps go first. */
  enqueue(...steps: ScriptStep[]): void;
  /** Steps not consumed yet. */
  pending(): number;
  /** Stops listening and drops open connections (including requests still in a `delayMs`). */
  close(): Promise<void>;
}

/** How to start the fake. */
export interface FakeMessagesApiOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1: the fake is never meant to be reachable from elsewhere. */
  host?: string;
  /**
   * `scripted` (default): answers come from the script, and a request that finds it empty gets a
   * loud 500. `rules`: the offline stand-in answers whatever the script does not.
   */
  mode?: 'scripted' | 'rules';
  /** Steps queued before the first request. */
  script?: ScriptStep[];
  /** One line per request. */
  log?: (line: string) => void;
}

/**
 * Starts the wire-level fake of Claude's Messages API for a test, driven through the real
 * `@anthropic-ai/sdk`: it validates requests like the real API (the offline server underneath),
 * records every request, and answers from a script (or, in rules mode, like the offline stand-in
 * once the script is empty).
 */
export async function startFakeMessagesApi(options: FakeMessagesApiOptions = {}): Promise<FakeMessagesApi> {
  const mode = options.mode ?? 'scripted';
  const queue: ScriptStep[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const server = await startMessagesApiServer({
    onRequest: (request) => requests.push(request),
    respond: (request, signal) => {
      const step = queue.shift();
      if (step) return answerStep(step, request, signal);
      return mode === 'rules' ? respondByRules(request.body) : scriptRanOut(requests.length);
    },
    label: mode,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.log !== undefined ? { log: options.log } : {}),
  });
  return {
    url: server.url,
    requests,
    enqueue(...steps: ScriptStep[]): void {
      queue.push(...steps);
    },
    pending(): number {
      return queue.length;
    },
    close: () => server.close(),
  };
}
