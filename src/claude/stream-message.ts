import { APIError, APIConnectionError, type Anthropic } from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import { ClaudeTimeLimitError, type ClaudeCallLimits } from '../errors/claude-time-limits';

/** What a streamed call reports while it runs, besides its result. */
export interface StreamMessageOptions {
  /** The caller's cancellation (the activity's). */
  signal: AbortSignal;
  limits: ClaudeCallLimits;
  /** Every event of the stream (the activity heartbeats on it). */
  onEvent?: () => void;
  /** Each piece of text as the model writes it. Errors thrown here are ignored: a listener never breaks the call. */
  onTextDelta?: (text: string) => void;
  /** Each piece of thinking (`thinking_delta`) as the model writes it; errors are ignored likewise. */
  onThinkingDelta?: (thinking: string) => void;
  /**
   * Beta features the request uses (`anthropic-beta`), e.g. compaction: the call then goes through
   * the SDK's beta client, whose stream knows the beta blocks. None: the GA call, as always.
   */
  betas?: readonly string[];
}

/** What the call uses of a stream, the GA one or the beta one alike. */
interface StreamLike {
  on(event: 'connect' | 'streamEvent', listener: () => void): unknown;
  on(event: 'text' | 'thinking', listener: (piece: string) => void): unknown;
  finalMessage(): Promise<unknown>;
}

/** A request body: the GA fields, and the beta ones a conversation may turn on (context editing). */
export type StreamRequestBody = MessageCreateParamsBase & { context_management?: unknown };

/**
 * One `POST /v1/messages` with `stream: true`, accumulated into the final `Message`, exactly as the
 * non-streaming call returns it. Streaming is what lets a long generation (a large `max_tokens`)
 * run at all: the SDK refuses non-streaming calls that may take over 10 minutes, and an idle HTTP
 * response is what proxies and clients cut. The call is cut by its own limits only (`limits`, see
 * `src/errors/claude-time-limits.ts`): a stall (no headers or no event for `stallTimeoutMs`) and
 * the total; either throws a {@link ClaudeTimeLimitError}.
 */
export async function streamMessage(client: Anthropic, body: StreamRequestBody, options: StreamMessageOptions): Promise<Message> {
  const { limits } = options;
  const controller = new AbortController();
  let cut: ClaudeTimeLimitError | undefined;
  const cutWith = (error: ClaudeTimeLimitError): void => {
    cut ??= error;
    controller.abort();
  };
  let stallTimer = setTimeout(() => cutWith(new ClaudeTimeLimitError('stall', limits.stallTimeoutMs)), limits.stallTimeoutMs);
  const totalTimer = setTimeout(() => cutWith(new ClaudeTimeLimitError('total', limits.totalTimeoutMs)), limits.totalTimeoutMs);
  const progress = (): void => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => cutWith(new ClaudeTimeLimitError('stall', limits.stallTimeoutMs)), limits.stallTimeoutMs);
    options.onEvent?.();
  };
  const cancel = (): void => controller.abort();
  if (options.signal.aborted) controller.abort();
  options.signal.addEventListener('abort', cancel);
  try {
    // The SDK's own timeout covers only the wait for the response's headers; the stall timer does
    // that already, so the SDK's is set beyond it, never to fire first.
    const requestOptions = { signal: controller.signal, timeout: limits.totalTimeoutMs + limits.stallTimeoutMs };
    const betas = options.betas ?? [];
    // The beta stream accumulates the same events, plus the beta blocks (compaction); its final
    // message is a superset of the GA one, kept as such in the history.
    const stream: StreamLike =
      betas.length > 0
        ? client.beta.messages.stream({ ...body, betas: [...betas] } as unknown as Parameters<Anthropic['beta']['messages']['stream']>[0], requestOptions)
        : client.messages.stream(body, requestOptions);
    stream.on('connect', progress);
    stream.on('streamEvent', progress);
    stream.on('text', (text) => {
      try {
        options.onTextDelta?.(text);
      } catch {
        // A listener's failure is its own; the answer goes on.
      }
    });
    stream.on('thinking', (thinking) => {
      try {
        options.onThinkingDelta?.(thinking);
      } catch {
        // Likewise.
      }
    });
    return (await stream.finalMessage()) as Message;
  } catch (error) {
    if (cut) throw cut;
    // A body cut mid-stream (a reset, a proxy that closed) arrives as a plain error from the HTTP
    // client: for the host it is a lost connection like any other.
    if (!options.signal.aborted && !(error instanceof APIError) && error instanceof Error && !(error instanceof APIConnectionError)) {
      throw new APIConnectionError({ message: `the stream broke: ${error.message}`, cause: error });
    }
    throw error;
  } finally {
    clearTimeout(stallTimer);
    clearTimeout(totalTimer);
    options.signal.removeEventListener('abort', cancel);
  }
}
