/**
 * `mcp-host chat` on a terminal (issue 10, live progress): the compiled CLI runs in a tmux pane (a
 * real pseudo-terminal), against the compiled worker process, a real MCP server whose tool takes
 * two seconds, and the fake Messages API streaming the answer, which the test holds back half
 * way. The tool's progress lines and the answer's first part must be on the screen while the
 * rest of the answer is not written yet; once released, the whole answer. The screen is saved
 * to test-output/chat-pty/ (`npm run build` first: the test runs dist/).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { scenarioServer } from '../fixtures/reference-servers';
import { runCliProcess } from '../support/cli-process';
import { REPO_ROOT } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

const OUTPUT_DIR = path.join(REPO_ROOT, 'test-output', 'chat-pty');
const ANSWER_LINES = Array.from({ length: 24 }, (_, i) => `line ${String(i + 1).padStart(2, '0')} of the forecast: clear skies, 25 C.`);
const ANSWER = ANSWER_LINES.join('\n');
const CHUNK = 16;

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
}

/** The lab server, and a server whose tool must be approved (mcp.json `approval: "ask"`). */
function guardedConfig(): string {
  const file = writeMcpConfig([scenarioServer('lab', { SCENARIO_TOOLS: 'progress' }), scenarioServer('guarded', { SCENARIO_TOOLS: 'guarded_op' })]);
  const config = JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };
  config.mcpServers.guarded!.approval = 'ask';
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

describe('mcp-host chat on a pseudo-terminal', () => {
  const socket = `mcp-host-pty-${randomUUID().slice(0, 8)}`;
  const taskQueue = `pty-${randomUUID()}`;
  let fake: FakeMessagesApi;
  let worker: WorkerProcess;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-u', '-L', socket, ...args], { encoding: 'utf8', env: { ...process.env, LANG: 'C.UTF-8' } });
  /** The pane's whole text, wrapped lines joined. */
  const screen = (): string => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'chat');
  const frames: string[] = [];

  async function waitFor(check: (text: string) => boolean, what: string, ms = 60_000): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      const text = screen();
      if (check(text)) {
        frames.push(`---- ${what} (${new Date().toISOString()})\n${text}`);
        return text;
      }
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the screen:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    if (!hasTmux()) throw new Error('tmux is not installed (Debian: apt-get install tmux; .ci/run installs it)');
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    worker = await spawnWorkerProcess({
      address: temporalAddress(),
      taskQueue,
      mcpConfigPath: guardedConfig(),
      claudeBaseUrl: fake.url,
    });
  }, 90_000);
  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // not started
    }
    await worker?.stop();
    await fake?.close();
    if (frames.length > 0) {
      fs.mkdirSync(OUTPUT_DIR, { recursive: true });
      fs.writeFileSync(path.join(OUTPUT_DIR, 'screens.txt'), `${frames.join('\n')}\n`);
    }
  });

  test('the tool progress and the answer show while the turn runs, before the answer is all written', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const toolStep: ScriptStep = {
      kind: 'message',
      content: [
        { type: 'text', text: 'Let me ask the slow tool.' },
        { type: 'tool_use', name: 'progress', input: { steps: 4, ms: 500 } },
      ],
      stop_reason: 'tool_use',
    };
    // message_start, ping, content_block_start, then text deltas: hold after a third of them.
    const heldAfter = 3 + Math.floor(ANSWER.length / CHUNK / 3);
    const answerStep: ScriptStep = {
      kind: 'message',
      content: [{ type: 'text', text: ANSWER }],
      stop_reason: 'end_turn',
      stream: { chunkChars: CHUNK, eventGapMs: 10, holdAfter: { events: heldAfter, until: held } },
    };
    fake.enqueue(toolStep, answerStep);

    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
      TEMPORAL_ADDRESS: temporalAddress(),
      MCP_HOST_TASK_QUEUE: taskQueue,
    };
    const command = `env -i ${Object.entries(env).map(([k, v]) => `${k}='${v}'`).join(' ')} ${process.execPath} ${path.join(REPO_ROOT, 'bin/mcp-host.js')} chat`;
    tmux('new-session', '-d', '-s', 'chat', '-x', '160', '-y', '60', command);
    await waitFor((text) => text.includes('you> '), 'the prompt');
    tmux('send-keys', '-t', 'chat', 'what is the forecast, slowly?', 'Enter');

    // The tool call shows as it starts, while it runs (two seconds), before its end.
    const running = await waitFor((text) => text.includes('→ progress'), 'the tool call starting');
    expect(running).not.toContain('✓ progress');

    // While the fake holds the answer's last two thirds back:
    const during = await waitFor((text) => text.includes(ANSWER_LINES[0]!), 'the first line of the answer, streamed');
    expect(during).toMatch(/→ progress \{"steps":4,"ms":500\} · lab/);
    expect(during).toMatch(/✓ progress \d+\.\d s/);
    expect(during).toContain('claude> Let me ask the slow tool.');
    expect(during).toContain(`claude> ${ANSWER_LINES[0]!}`);
    // The tool lines come before the answer, and the answer's end is not there yet.
    expect(during.indexOf('✓ progress')).toBeLessThan(during.indexOf(ANSWER_LINES[0]!));
    expect(during).not.toContain(ANSWER_LINES.at(-1));
    expect(fake.requests).toHaveLength(2);

    release();
    const after = await waitFor((text) => text.includes(ANSWER_LINES.at(-1)!) && text.trimEnd().endsWith('you>'), 'the whole answer and the next prompt');
    // The answer once, whole, in order (streamed, not printed again at the end).
    const answerAt = after.indexOf(`claude> ${ANSWER_LINES[0]!}`);
    expect(after.slice(answerAt + 'claude> '.length)).toContain(ANSWER);
    expect(after.split(ANSWER_LINES.at(-1)!)).toHaveLength(2);
    tmux('send-keys', '-t', 'chat', '/quit', 'Enter');
  }, 120_000);

  test('send on a terminal whose turn waits for a tool approval still exits (3), its follower stopped', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LANG: 'C.UTF-8', TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue };
    const id = `pty-approval-${randomUUID()}`;
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'hello' }], stop_reason: 'end_turn' });
    const cli = `env -i ${Object.entries(env).map(([k, v]) => `${k}='${v}'`).join(' ')} ${process.execPath} ${path.join(REPO_ROOT, 'bin/mcp-host.js')}`;
    // Not execFileSync: the fake answering it runs in this process.
    expect(await runCliProcess(['start', '--id', id, '--wait', 'hi'], env)).toMatchObject({ code: 0 });
    fake.enqueue({
      kind: 'message',
      content: [
        { type: 'text', text: 'This needs your approval.' },
        { type: 'tool_use', name: 'guarded_op', input: {} },
      ],
      stop_reason: 'tool_use',
    });
    tmux('new-session', '-d', '-s', 'send', '-x', '160', '-y', '40', `sh -c "${cli} send ${id} 'do the guarded thing'; echo EXIT=\\$?; sleep 600"`);
    const capture = (): string => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'send');
    const end = Date.now() + 60_000;
    let text = capture();
    while (!text.includes('EXIT=') && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      text = capture();
    }
    frames.push(`---- send waiting for approval\n${text}`);
    // send shows the answer's text live (no prefix), then the approval notice, and exits.
    expect(text).toMatch(/^This needs your approval\.$/m);
    expect(text).toContain('waits for approval of 1 tool call');
    expect(text).toContain('EXIT=3');
  }, 120_000);
});
