import { respondByRules, startMessagesApiServer } from '../offline';
import { answerStep, scriptRanOut } from './answer-step';
import type { RecordedRequest } from './recorded-request';
import { DEFAULT_MAX_RECORDED_BYTES, RequestLog } from './request-log';
import type { ScriptStep } from './script-step';

/** A running fake of `POST /v1/messages`, scripted by a test. */
export interface FakeMessagesApi {
  /** e.g. `http://127.0.0.1:PORT`: the SDK's `baseURL` (it appends `/v1/messages`). */
  readonly url: string;
  /**
   * The requests received, in order, including invalid ones and ones that found no step; the
   * newest `maxRecordedBytes` of them (the oldest are dropped past it, see {@link droppedRequests}).
   */
  readonly requests: RecordedRequest[];
  /** How many of the oldest requests were dropped from `requests` to stay under `maxRecordedBytes`. */
  droppedRequests(): number;
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
  /** Bound of `requests`, in bytes of request bodies (default 128 MiB): the oldest go first. */
  maxRecordedBytes?: number;
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
  const log = new RequestLog(options.maxRecordedBytes ?? DEFAULT_MAX_RECORDED_BYTES);
  const requests = log.requests;
  const server = await startMessagesApiServer({
    onRequest: (request) => log.add(request),
    respond: (request, signal) => {
      const step = queue.shift();
      if (step) return answerStep(step, request, signal);
      return mode === 'rules' ? respondByRules(request.body) : scriptRanOut(log.received());
    },
    label: mode,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.log !== undefined ? { log: options.log } : {}),
  });
  return {
    url: server.url,
    requests,
    droppedRequests: () => log.dropped(),
    enqueue(...steps: ScriptStep[]): void {
      queue.push(...steps);
    },
    pending(): number {
      return queue.length;
    },
    close: () => server.close(),
  };
}
