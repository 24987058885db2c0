/**
 * What of the dev server's own log reaches the terminal of `npm start`.
 *
 * `temporal server start-dev --log-level warn` still warns about things that are routine for this
 * host: an update-with-start (`ExecuteMultiOperation`) or an update waits for its turn's answer, so
 * a turn with a 10 s tool call is a "Slow gRPC call"; the Web UI asks for history pages of 1,000
 * events, which the server calls "larger than threshold". Those lines go only to the log file. Every
 * other warning and error is shown, and one that repeats is shown at most once a minute, with how
 * many were held back since. The log file keeps every line.
 */

/** A dev server's log line, as `npm start` treats it. */
export type DevServerLineKind = 'routine' | 'shown';

/**
 * GRPC methods that wait for a workflow by design: an update (with or without start) returns when
 * the turn it sent has its answer. Slow is their normal.
 */
const WAITING_METHODS = ['ExecuteMultiOperation', 'UpdateWorkflowExecution', 'PollWorkflowExecutionUpdate'];

/** A line's message: `msg="…"` in the text format, `"msg":"…"` in JSON. */
function messageOf(line: string): string | undefined {
  const match = /(?:^|\s)msg="((?:[^"\\]|\\.)*)"|"msg":"((?:[^"\\]|\\.)*)"/.exec(line);
  return match?.[1] ?? match?.[2];
}

/** Whether a line of the dev server's log is routine for this host (log file only) or shown. */
export function classifyDevServerLine(line: string): DevServerLineKind {
  const message = messageOf(line);
  if (message === 'GetHistory page size is larger than threshold') return 'routine';
  if (message === 'Slow gRPC call' && WAITING_METHODS.some((method) => line.includes(`/${method}`))) return 'routine';
  return 'shown';
}

/** How often one kind of shown warning may reach the terminal. */
export const REPEAT_WINDOW_MS = 60_000;

/**
 * Decides, line by line, what reaches the terminal: routine lines never, a shown line unless the
 * same message was shown less than {@link REPEAT_WINDOW_MS} ago. A line shown after some were held
 * back says how many.
 */
export class DevServerLogFilter {
  private readonly lastShown = new Map<string, { at: number; heldBack: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The text to print for this line, or undefined to print nothing. */
  toTerminal(line: string): string | undefined {
    if (classifyDevServerLine(line) === 'routine') return undefined;
    const key = messageOf(line) ?? line;
    const at = this.now();
    const last = this.lastShown.get(key);
    if (last !== undefined && at - last.at < REPEAT_WINDOW_MS) {
      last.heldBack++;
      return undefined;
    }
    this.lastShown.set(key, { at, heldBack: 0 });
    return last !== undefined && last.heldBack > 0 ? `${line} (${last.heldBack} more like it since the last shown)` : line;
  }
}
