/**
 * Prints what a follower sees on a terminal, as it comes: one line per tool call start, retry and
 * end, Claude's thinking (thinking on; dimmed on a terminal) and the answer's text as Claude
 * writes them.
 *
 *   thinking> The user wants Beijing's weather: get_weather.
 *   → get_weather {"city":"北京"} · weather
 *   ✓ get_weather 1.2 s
 *   claude> 北京今天晴，25°C，适合出门。
 */
import type { TurnResult } from '../conversation/types';
import type { ConversationEvent } from './conversation-events';

/** Put before a call's thinking, as `claude> ` is before the answer in chat. */
export const THINKING_PREFIX = 'thinking> ';

/** ANSI faint on, and back to normal intensity (not a full reset: nothing else is turned off). */
const DIM_ON = '\u001b[2m';
const DIM_OFF = '\u001b[22m';

/** How a printer shows what it prints. */
export interface ProgressPrinterOptions {
  /** Thinking dimmed (ANSI faint): for a terminal; elsewhere the prefix alone tells it apart. */
  dim?: boolean;
}

/** Tool arguments shown in a progress line, at most this many characters of JSON. */
const ARGUMENTS_CHARS = 200;

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function oneLine(text: string, chars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > chars ? `${flat.slice(0, chars)}…` : flat;
}

/** The printer of one terminal (or stream); `write` writes without adding a newline. */
export class ProgressPrinter {
  private atLineStart = true;
  /** The Claude call whose thinking or answer is being printed, and what of it was printed. */
  private streaming: { callId: string; kind: 'thinking' | 'text'; printed: string; complete: boolean } | undefined;
  /** The whole text last printed of a finished Claude call, when all of it was. */
  private lastAnswer: string | undefined;

  /**
   * @param write Writes text as is.
   * @param answerPrefix Put before each answer's text (`claude> ` in chat, nothing for `send`).
   */
  constructor(
    private readonly write: (text: string) => void,
    private readonly answerPrefix: string = '',
    private readonly options: ProgressPrinterOptions = {},
  ) {}

  /** Prints what `event` shows. */
  onEvent(event: ConversationEvent): void {
    switch (event.type) {
      case 'tool_started': {
        const args = event.arguments !== undefined ? ` ${oneLine(JSON.stringify(event.arguments), ARGUMENTS_CHARS)}` : '';
        this.line(`  → ${event.tool}${args}${event.server ? ` · ${event.server}` : ''}`);
        return;
      }
      case 'tool_retrying':
        this.line(`  ↻ ${event.tool}: attempt ${event.attempt}${event.lastFailure ? ` (last: ${oneLine(event.lastFailure, ARGUMENTS_CHARS)})` : ''}`);
        return;
      case 'tool_progress': {
        const amount = event.progress !== undefined ? ` ${event.progress}${event.total !== undefined ? `/${event.total}` : ''}` : '';
        const task = event.task !== undefined ? ` task ${event.task.status}${event.task.message ? `: ${oneLine(event.task.message, ARGUMENTS_CHARS)}` : ''}` : '';
        this.line(`  … ${event.tool}${amount}${event.message ? ` ${oneLine(event.message, ARGUMENTS_CHARS)}` : ''}${task}`);
        return;
      }
      case 'tool_finished':
        this.line(`  ${event.error === undefined ? '✓' : '✗'} ${event.tool} ${seconds(event.durationMs)}${event.error !== undefined ? `: ${oneLine(event.error, ARGUMENTS_CHARS)}` : ''}`);
        return;
      case 'claude_started':
        return;
      case 'claude_text':
        this.text(event.callId, 'text', event.text, event.restart === true, event.skipped ?? 0);
        return;
      case 'claude_thinking':
        this.text(event.callId, 'thinking', event.text, event.restart === true, event.skipped ?? 0);
        return;
      case 'claude_finished':
        if (this.streaming?.callId === event.callId && this.streaming.kind === 'text') {
          this.lastAnswer = this.streaming.complete ? this.streaming.printed : undefined;
          this.streaming = undefined;
          this.endLine();
        } else {
          // Only its thinking was printed (an answer of tool calls, or all text came with the end).
          if (this.streaming?.callId === event.callId) {
            this.streaming = undefined;
            this.endLine();
          }
          this.lastAnswer = event.text === '' ? '' : undefined;
        }
        if (event.error !== undefined) this.line(`  ✗ Claude: ${oneLine(event.error, ARGUMENTS_CHARS)}`);
        return;
      case 'turn_finished':
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unhandled event ${JSON.stringify(unknown)}`);
      }
    }
  }

  /**
   * The turn is over: prints its answer unless the stream already showed all of it (then the
   * caller need not). Returns whether the answer is now on the terminal.
   */
  finishTurn(result: TurnResult | undefined): boolean {
    this.endLine();
    this.streaming = undefined;
    if (!result) return false;
    const shown = result.text !== '' && this.lastAnswer === result.text;
    this.lastAnswer = undefined;
    return shown;
  }

  /** A piece of the call's answer or thinking: each starts on a line of its own, after its prefix. */
  private text(callId: string, kind: 'thinking' | 'text', text: string, restart: boolean, skipped: number): void {
    if (this.streaming?.callId !== callId || this.streaming.kind !== kind || restart) {
      this.endLine();
      this.styled(kind, `${kind === 'thinking' ? THINKING_PREFIX : this.answerPrefix}${restart ? '[again] ' : ''}`);
      this.atLineStart = false;
      this.streaming = { callId, kind, printed: '', complete: true };
    }
    if (skipped > 0) {
      this.styled(kind, '…');
      this.streaming.complete = false;
    }
    if (text === '') return;
    this.styled(kind, text);
    this.streaming.printed += text;
    this.atLineStart = text.endsWith('\n');
  }

  /** Writes `text`, dimmed when it is thinking and the printer dims (each piece closed on its own). */
  private styled(kind: 'thinking' | 'text', text: string): void {
    if (text === '') return;
    this.write(kind === 'thinking' && this.options.dim === true ? `${DIM_ON}${text}${DIM_OFF}` : text);
  }

  private line(text: string): void {
    this.endLine();
    this.write(`${text}\n`);
    // A line inside an answer's text (another turn's tool): the text goes on below it, anew.
    this.streaming = undefined;
  }

  private endLine(): void {
    if (!this.atLineStart) this.write('\n');
    this.atLineStart = true;
  }
}
