/**
 * The plain loop of the seed's §8, in this process, with the same SDK clients the host uses (the
 * project's Anthropic client against the fake model, the project's MCP connections to the same
 * stdio server): list the tools, then call Claude and run the tools it asks for until it stops.
 * Nothing is durable; this is what a round costs without Temporal.
 */
import * as path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { createClaudeClient } from '../../src/claude/create-claude-client';
import { DEFAULTS } from '../../src/config/settings';
import type { McpServerConfig } from '../../src/mcp/config';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { userText } from '../turn-settings';
import type { FakeModel, Responder } from './fake-model';

const REPO_ROOT = path.resolve(__dirname, '../..');

export interface PlainLoop {
  /** One turn of conversation `tag`; resolves with its latency in ms. */
  turn(tag: number, responder: Responder, modelMs: number): Promise<number>;
  close(): Promise<void>;
}

export function startPlainLoop(model: FakeModel, toolMs: number): PlainLoop {
  const server: McpServerConfig = {
    name: 'stations',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(REPO_ROOT, 'bench/fixtures/station-server.ts')],
    env: { STATION_DELAY_MS: String(toolMs) },
    cwd: REPO_ROOT,
    tools: {},
  };
  const claude: Anthropic = createClaudeClient({ apiKey: 'sk-ant-bench-not-a-real-key', baseURL: model.url });
  const mcp = new McpConnections([server], (line, level) => {
    if (level !== 'info') process.stderr.write(`${line}\n`);
  });
  return {
    async turn(tag, responder, modelMs) {
      model.play(tag, responder, modelMs);
      try {
        const started = performance.now();
        const listed = await mcp.use('stations', (client) => client.listTools());
        const tools: Tool[] = listed.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), input_schema: t.inputSchema }));
        const messages: MessageParam[] = [{ role: 'user', content: userText(tag) }];
        for (;;) {
          const reply = await claude.messages.create({ model: DEFAULTS.model, max_tokens: 1024, messages, tools });
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
      } finally {
        model.done(tag);
      }
    },
    close: () => mcp.closeAll(),
  };
}
