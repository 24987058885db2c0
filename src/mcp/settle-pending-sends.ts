import { SdkError, SdkErrorCode, type Transport } from '@modelcontextprotocol/client';

/** Errno codes of a write to a server's stdin that failed: the message never reached the server. */
const WRITE_FAILURES: ReadonlySet<string> = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

function errnoCode(error: Error): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Makes every `send` of a stdio transport settle when its pipe breaks or the transport closes.
 *
 * The MCP SDK's stdio transport waits for the pipe's `drain` when a write is not taken at once, and
 * a write to a server that has exited fails (EPIPE) without `drain` ever coming, so that send never
 * settles. A request is still failed by the close (the SDK fails its pending requests then), but
 * later and as `Connection closed`, which says it may have run; a notification is failed by
 * nothing, and `connect()` awaits one, `notifications/initialized`. A server that exited between
 * its `initialize` answer and that notification (a Ctrl-C reaching the whole process group during
 * `npm start`) left the connect, and the worker's shutdown that waits for it, hanging for good.
 *
 * Here a send fails at once with the write's own error (EPIPE: not sent, so a tool call may be sent
 * again on a new connection, `src/mcp/is-transport-failure.ts`), and any send still pending when
 * the transport closes fails as the SDK fails pending requests. Apply before `connect()`: the SDK
 * chains its own `onerror` and `onclose` after the ones set here.
 */
export function settlePendingSends<T extends Transport>(transport: T): T {
  const pending = new Set<(error: Error) => void>();
  const failAll = (error: Error): void => {
    for (const fail of [...pending]) fail(error);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const settle = (error?: Error): void => {
        if (!pending.delete(fail)) return;
        if (error === undefined) resolve();
        else reject(error);
      };
      const fail = (error: Error): void => settle(error);
      pending.add(fail);
      send(message, options).then(
        () => settle(),
        (error: unknown) => settle(error instanceof Error ? error : new Error('the message could not be sent')),
      );
    });
  const onerror = transport.onerror;
  transport.onerror = (error): void => {
    onerror?.(error);
    const code = errnoCode(error);
    if (code !== undefined && WRITE_FAILURES.has(code)) failAll(error);
  };
  const onclose = transport.onclose;
  transport.onclose = (): void => {
    onclose?.();
    failAll(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
  };
  return transport;
}
