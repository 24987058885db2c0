import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = path.resolve(__dirname, '..');
const LAB_SERVER = path.join(ROOT, 'test/fixtures/lab-server.ts');

describe('lab server over stdio', () => {
  let dir: string;
  let logFile: string;
  let client: Client | undefined;
  let transport: StdioClientTransport | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'lab-server-'));
    logFile = path.join(dir, 'lab.log');
    transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', LAB_SERVER],
      cwd: ROOT,
      env: { LAB_LOG: logFile },
      stderr: 'pipe',
    });
    client = new Client({ name: 'lab-server-test', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    const pid = transport?.pid ?? null;
    await client?.close();
    // close() ends stdin and escalates to signals itself; this only guards against a leak.
    if (pid !== null) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone, as it should be.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  function logLines(): string[] {
    return readFileSync(logFile, 'utf8').split('\n').filter((line) => line !== '');
  }

  it('identifies itself and lists its tools', async () => {
    expect(client!.getServerVersion()?.name).toBe('lab-server');
    const { tools } = await client!.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'blob', 'fail', 'slow_echo', 'tiny_png']);
    const slowEcho = tools.find((tool) => tool.name === 'slow_echo');
    expect(slowEcho?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' }, ms: { type: 'number' } },
      required: ['text', 'ms'],
    });
  });

  it('slow_echo waits, echoes, and logs start then end', async () => {
    const started = Date.now();
    await expect(client!.callTool({ name: 'slow_echo', arguments: { text: 'hello', ms: 200 } })).resolves.toEqual({
      content: [{ type: 'text', text: 'echo: hello' }],
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(logLines().slice(-2)).toEqual(['start hello', 'end hello']);
  });

  it('slow_echo calls on one connection run concurrently', async () => {
    const before = logLines().length;
    const [slow, fast] = await Promise.all([
      client!.callTool({ name: 'slow_echo', arguments: { text: 'slow', ms: 400 } }),
      client!.callTool({ name: 'slow_echo', arguments: { text: 'fast', ms: 50 } }),
    ]);
    expect(slow.content).toEqual([{ type: 'text', text: 'echo: slow' }]);
    expect(fast.content).toEqual([{ type: 'text', text: 'echo: fast' }]);
    expect(logLines().slice(before)).toEqual(['start slow', 'start fast', 'end fast', 'end slow']);
  });

  it('fail returns a tool error, not a JSON-RPC error', async () => {
    await expect(client!.callTool({ name: 'fail', arguments: { message: 'boom' } })).resolves.toEqual({
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
  });

  it('tiny_png returns a text block and a valid 1x1 PNG', async () => {
    const result = await client!.callTool({ name: 'tiny_png', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: 'a 1x1 png:' },
      { type: 'image', data: expect.any(String), mimeType: 'image/png' },
    ]);
    const blocks = result.content as Array<{ type: string; data?: string }>;
    const png = Buffer.from(blocks[1]?.data ?? '', 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(1); // width
    expect(png.readUInt32BE(20)).toBe(1); // height
    expect(png.subarray(-8, -4).toString('ascii')).toBe('IEND');
  });

  it('add adds', async () => {
    await expect(client!.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).resolves.toEqual({
      content: [{ type: 'text', text: '5' }],
    });
    await expect(client!.callTool({ name: 'add', arguments: { a: 0.5, b: -2 } })).resolves.toEqual({
      content: [{ type: 'text', text: '-1.5' }],
    });
  });

  // Pins an SDK 1.32 habit the host must cope with: a registerTool server answers an unknown tool
  // or bad arguments with an isError result, not with the JSON-RPC error the MCP spec describes.
  it('answers an unknown tool and bad arguments with isError results (SDK registerTool behaviour)', async () => {
    const unknown = await client!.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toEqual([{ type: 'text', text: expect.stringContaining('Tool nope not found') }]);

    const bad = await client!.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
    expect(bad.isError).toBe(true);
    expect(bad.content).toEqual([{ type: 'text', text: expect.stringContaining('-32602') }]);
  });
});
