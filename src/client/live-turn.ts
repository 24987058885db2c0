/**
 * The CLI's live view of a turn (`mcp-host chat`, `mcp-host send`): while the turn runs, its tool
 * calls and the answer's text as Claude writes it, printed by a {@link ProgressPrinter}.
 *
 * When: `chat` and `send` on a terminal (stdout a TTY), unless `send --no-follow`; `send --follow`
 * also without one, then on stderr, so that stdout stays the answer alone, as scripts read it.
 */
import type { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { TurnContent } from '../conversation/turn-content';
import type { TurnResult } from '../conversation/types';
import type { LiveFollowing } from '../live/live-channel';
import { sendMessage } from './commands';
import { sendFollowing } from './follow-turn';
import { ProgressPrinter } from './render-progress';

/** A stream the live view writes to (process.stdout, process.stderr). */
export interface LiveStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Where a turn's progress goes, if anywhere. */
export class LiveTurn {
  private constructor(
    private readonly client: Client,
    private readonly printer: ProgressPrinter,
    /** The answer shown live is the one the command prints (on stdout), so it is not printed twice. */
    private readonly showsAnswer: boolean,
    /** The live channel the follower reads (MCP_HOST_LIVE_URL), if any. */
    private readonly live: LiveFollowing | undefined,
  ) {}

  /**
   * The live view for a command: on `stdout` when it is a terminal (unless `follow` is false), on
   * `stderr` when `follow` is true and `stdout` is not a terminal; none otherwise. With `live`, the
   * answer comes from the live channel as the worker publishes it.
   */
  static choose(
    client: Client,
    options: { follow?: boolean; answerPrefix?: string; live?: LiveFollowing | undefined },
    stdout: LiveStream = process.stdout,
    stderr: LiveStream = process.stderr,
  ): LiveTurn | undefined {
    if (options.follow === false) return undefined;
    // Thinking is dimmed where the live view goes to a terminal.
    if (stdout.isTTY === true) return new LiveTurn(client, new ProgressPrinter((text) => stdout.write(text), options.answerPrefix, { dim: true }), true, options.live);
    if (options.follow === true) return new LiveTurn(client, new ProgressPrinter((text) => stderr.write(text), options.answerPrefix, { dim: stderr.isTTY === true }), false, options.live);
    return undefined;
  }

  /**
   * Runs `send` (the turn with update id `messageId`) showing its progress; `answered` says whether
   * the answer is already on stdout, whole, so the caller need not print it.
   */
  async run<T extends TurnResult | undefined>(workflowId: string, messageId: string, send: () => Promise<T>): Promise<{ result: T; answered: boolean }> {
    // keepAlive false: a command that returns early (a turn waiting for approval) exits all the same.
    const result = await sendFollowing(this.client, workflowId, messageId, (event) => this.printer.onEvent(event), send, {
      keepAlive: false,
      ...(this.live !== undefined ? { live: this.live } : {}),
    }).catch((err: unknown) => {
      this.printer.finishTurn(undefined);
      throw err;
    });
    const shown = this.printer.finishTurn(result);
    return { result, answered: shown && this.showsAnswer };
  }
}

/** `send`'s flags: `--follow` shows progress also without a terminal (on stderr), `--no-follow` never. */
export const FOLLOW_FLAGS = { follow: { type: 'boolean' }, 'no-follow': { type: 'boolean' } } as const;

/** What the flags chose: true, false, or undefined (live on a terminal only). */
export function followChoice(values: { follow?: boolean | undefined; 'no-follow'?: boolean | undefined }): boolean | undefined {
  if (values['no-follow'] === true) return false;
  return values.follow === true ? true : undefined;
}

/**
 * `mcp-host send`: sends the turn, live when chosen (through `channel` when there is one).
 * `answered()` says, once the turn is done, whether its answer is already on stdout (then it is not
 * printed again).
 */
export function sendLive(
  client: Client,
  id: string,
  message: string,
  follow: boolean | undefined,
  content?: TurnContent,
  channel?: LiveFollowing,
): { turn: Promise<TurnResult>; answered: () => boolean } {
  const live = LiveTurn.choose(client, { ...(follow !== undefined ? { follow } : {}), live: channel });
  const extra = content !== undefined ? { content } : {};
  if (!live) return { turn: sendMessage(client, id, message, extra), answered: () => false };
  const messageId = randomUUID();
  let answered = false;
  const turn = live.run(id, messageId, () => sendMessage(client, id, message, { messageId, ...extra })).then((done) => {
    answered = done.answered;
    return done.result;
  });
  return { turn, answered: () => answered };
}
