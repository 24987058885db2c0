/**
 * The plain loop of the seed's §8, with the same SDK clients the host uses (the project's
 * Anthropic client against the fake model, the project's MCP connections to the same stdio
 * server): list the tools, then call Claude and run the tools it asks for until it stops. Nothing
 * is durable; this is what a round costs without Temporal. It runs in the benchmark's process
 * ({@link startPlainLoop}, the seed's non-streaming call), or in a process of its own as a worker
 * runs (`plain-loop-process.ts`), where it streams each answer as the host's `callClaude` does:
 * the work of the host's activities, without Temporal.
 */
import { fork } from 'node:child_process';
import * as path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { createClaudeClient } from '../../src/claude/create-claude-client';
import { streamMessage } from '../../src/claude/stream-message';
import { DEFAULTS } from '../../src/config/settings';
import { claudeCallLimits } from '../../src/errors/claude-time-limits';
import type { McpServerConfig } from '../../src/mcp/config';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { userText } from '../turn-settings';
import type { FakeModel, Responder } from './fake-model';

const REPO_ROOT = path.resolve(__dirname, '../..');

/** The loop itself, against a model at `modelUrl`: one turn of conversation `tag` at a time. */
export interface PlainTurns {
  /** One turn of conversation `tag` (whose answers the fake model must be playing); resolves with its latency in ms. */
  turn(tag: number): Promise<number>;
  close(): Promise<void>;
}

/** How the loop calls Claude: `create` (the seed's §8) or `stream` (as the host's `callClaude`). */
export type PlainCall = 'create' | 'stream';

export function createPlainTurns(modelUrl: string, toolMs: number, call: PlainCall): PlainTurns {
  const server: McpServerConfig = {
    name: 'stations',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(REPO_ROOT, 'bench/fixtures/station-server.ts')],
    env: { STATION_DELAY_MS: String(toolMs) },
    cwd: REPO_ROOT,
    tools: {},
  };
  const claude: Anthropic = createClaudeClient({ apiKey: 'sk-ant-bench-not-a-real-key', baseURL: modelUrl });
  const mcp = new McpConnections([server], (line, level) => {
    if (level !== 'info') process.stderr.write(`${line}
`);
  });
  const maxTokens = 1024;
  const ask = (messages: MessageParam[], tools: Tool[]) =>
    call === 'create'
      ? claude.messages.create({ model: DEFAULTS.model, max_tokens: maxTokens, messages, tools })
      : streamMessage(claude, { model: DEFAULTS.model, max_tokens: maxTokens, messages, tools }, { signal: new AbortController().signal, limits: claudeCallLimits(maxTokens) });
  return {
    async turn(tag) {
      const started = performance.now();
      const listed = await mcp.use('stations', (client) => client.listTools());
      const tools: Tool[] = listed.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), input_schema: t.inputSchema }));
      const messages: MessageParam[] = [{ role: 'user', content: userText(tag) }];
      for (;;) {
        const reply = await ask(messages, tools);
        messages.push({ role: 'assistant', content: reply.content });
        if (reply.stop_reason !== 'tool_use') break;
        const results: ToolResultBlockParam[] = [];
        for (const block of reply.content) {
          if (block.type !== 'tool_use') continue;
          const result = await mcp.use('stations', (client) => client.callTool({ name: block.name, arguments: block.input as Record<string, unknown> }));
          const content = (result.content as Array<{ type: string; text?: string }>).map((c) => ({ type: 'text' as const, text: c.text ?? '' }));
          results.push({ type: 'tool_result', tool_use_id: block.id, content, ...(result.isError ? { is_error: true } : {}) });
        }
        messages.push({ role: 'user', content: results });
      }
      return performance.now() - started;
    },
    close: () => mcp.closeAll(),
  };
}

export interface PlainLoop {
  /** One turn of conversation `tag`; resolves with its latency in ms. */
  turn(tag: number, responder: Responder, modelMs: number): Promise<number>;
  close(): Promise<void>;
}

/** The loop over turns that the fake model plays for it (`turns`: in this process or in another). */
export function playedBy(model: FakeModel, turns: PlainTurns): PlainLoop {
  return {
    async turn(tag, responder, modelMs) {
      model.play(tag, responder, modelMs);
      try {
        return await turns.turn(tag);
      } finally {
        model.done(tag);
      }
    },
    close: () => turns.close(),
  };
}

/** The seed's plain loop in this process. */
export function startPlainLoop(model: FakeModel, toolMs: number): PlainLoop {
  return playedBy(model, createPlainTurns(model.url, toolMs, 'create'));
}

/**
 * The plain loop in a process of its own, streaming as the host does (`plain-loop-process.cjs`):
 * what the host's activities do, with the cross-process hops a worker's calls make, without Temporal.
 */
export async function startPlainLoopProcess(model: FakeModel, toolMs: number): Promise<PlainLoop> {
  const child = fork(path.join(__dirname, 'plain-loop-process.cjs'), [], {
    cwd: REPO_ROOT,
    execArgv: [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_CLAUDE_URL: model.url, BENCH_TOOL_MS: String(toolMs) },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = (): Promise<{ ready?: true; ms?: number; error?: string }> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`the plain loop's process exited (${String(code)})`));
      child.once('exit', onExit);
      child.once('message', (message: { ready?: true; ms?: number; error?: string }) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
  await next();
  let queue = Promise.resolve();
  const turns: PlainTurns = {
    turn(tag) {
      // One turn at a time: each answer is the reply to the one request before it.
      const result = queue.then(async () => {
        child.send({ tag });
        const reply = await next();
        if (reply.error !== undefined || reply.ms === undefined) throw new Error(`the plain loop's process failed a turn: ${reply.error ?? 'no answer'}`);
        return reply.ms;
      });
      queue = result.then(() => undefined, () => undefined);
      return result;
    },
    async close() {
      if (child.exitCode !== null) return;
      child.send({ close: true });
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(kill);
    },
  };
  return playedBy(model, turns);
}
