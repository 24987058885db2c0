/**
 * A stdio server whose stdin breaks while the host writes to it (src/mcp/settle-pending-sends.ts).
 * The server below answers `initialize` and closes its stdin at once, so the host's next write,
 * `notifications/initialized`, fails with EPIPE; it exits half a second later. Before the fix the
 * SDK's send waited for a `drain` that never comes and `connect()` never settled (seen: `npm start`
 * hung on Ctrl-C when the signal reached the weather server right after its answer).
 */
import { Client, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { settlePendingSends } from '../../src/mcp/settle-pending-sends';
import { transportFailureKind } from '../../src/mcp/is-transport-failure';

/**
 * Answers the first request (initialize) after closing its stdin (the file descriptor itself: Node never closes
 * fds 0-2 on a stream's destroy), then exits after 500 ms. Plain node: quick to start.
 */
const ANSWERS_THEN_CLOSES_STDIN = `
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  const line = buffer.split('\\n')[0];
  if (!buffer.includes('\\n')) return;
  const request = JSON.parse(line);
  process.stdin.pause();
  require('node:fs').closeSync(0);
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: {
    protocolVersion: request.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'breaks', version: '1' } } }) + '\\n');
  setTimeout(() => process.exit(0), 500);
});`;

/** Races `promise` against `ms`: 'hung' if it has not settled by then. */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<{ value?: T; error?: unknown } | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), ms);
  });
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error: unknown) => ({ error })), hung]);
  } finally {
    clearTimeout(timer);
  }
}

test('connect fails at once when the server stops reading right after its initialize answer (EPIPE), instead of hanging', async () => {
  const transport = settlePendingSends(new StdioClientTransport({ command: process.execPath, args: ['-e', ANSWERS_THEN_CLOSES_STDIN], stderr: 'pipe' }));
  const client = new Client({ name: 'test', version: '1' }, { capabilities: {} });
  const outcome = await settledWithin(client.connect(transport), 5000);
  await client.close().catch(() => undefined);
  expect(outcome).not.toBe('hung');
  const error = outcome === 'hung' ? undefined : outcome.error;
  // The write's own error: not sent, so a tool call failing so may go again on a new connection
  // (src/mcp/is-transport-failure.ts; Node's errors are of another realm than the test's `Error`,
  // so the code is checked here, and the classification of EPIPE in is-transport-failure.test.ts).
  expect(String(error)).toMatch(/EPIPE/);
  expect((error as NodeJS.ErrnoException).code).toBe('EPIPE');
});

test('the pool reports such a server as failing to connect, and closing the pool does not wait for it', async () => {
  const lines: string[] = [];
  const connections = new McpConnections(
    [{ name: 'breaks', transport: 'stdio', command: process.execPath, args: ['-e', ANSWERS_THEN_CLOSES_STDIN], env: {}, tools: {} }],
    (line) => lines.push(line),
  );
  try {
    const outcome = await settledWithin(connections.client('breaks'), 5000);
    expect(outcome).not.toBe('hung');
    expect(String(outcome === 'hung' ? '' : outcome.error)).toMatch(/cannot connect to MCP server "breaks".*EPIPE/);
  } finally {
    expect(await settledWithin(connections.closeAll(), 8000)).not.toBe('hung');
  }
});

test('a send still pending when the transport closes fails as the SDK fails pending requests', async () => {
  let sent: (() => void) | undefined;
  const stuck = {
    start: () => Promise.resolve(),
    close: () => Promise.resolve(),
    send: () => new Promise<void>((resolve) => {
      sent = resolve; // never called: like a write waiting for a drain that never comes
    }),
  } as unknown as StdioClientTransport;
  const transport = settlePendingSends(stuck);
  const sending = transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  transport.onclose?.();
  const outcome = await settledWithin(sending, 1000);
  expect(outcome).not.toBe('hung');
  const error = outcome === 'hung' ? undefined : outcome.error;
  expect(error).toBeInstanceOf(SdkError);
  expect((error as SdkError).code).toBe(SdkErrorCode.ConnectionClosed);
  expect(transportFailureKind(error)).toBe('interrupted');
  expect(sent).toBeDefined();
});
