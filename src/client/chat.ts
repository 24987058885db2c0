import type { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import * as readline from 'node:readline/promises';
import type { Settings } from '../config/settings';
import type { TurnResult } from '../conversation/types';
import type { LiveFollowing } from '../live/live-channel';
import { endConversation, history, newConversationId, sendMessage, setContextStrategy, setThinking, startConversation, status } from './commands';
import { parseContextStrategy } from '../context/strategy-spec';
import { formatThinking, parseThinking } from '../conversation/thinking';
import type { ConversationOptionsInput } from './conversation-options';
import { LiveTurn } from './live-turn';
import { approvalPrompt } from './approval-prompt';
import { inputPrompt } from './input-prompt';
import { promptWhileTurnRuns } from './turn-prompts';
import { renderHistory } from './render-history';
import { renderStatus } from './render-status';
import { ChatServers } from './chat-references';
import { renderResources } from './resources';

/**
 * The `chat` REPL: each line is a user turn (sent as an update, answered when the turn is done).
 * `@server:uri` in a line attaches that resource, and `/prompt SERVER/NAME [K=V…]` runs a server's
 * prompt as the turn. `/resources`, `/history`, `/status`, `/end` and `/quit` are commands;
 * `/thinking SPEC` and `/context SPEC` change the conversation's thinking (from its next turn) and
 * context strategy (from its next Claude call), or the options of the one the next line starts. With `--id` of an existing conversation
 * it continues that one; otherwise the first line starts a new one.
 */
export async function runChat(
  client: Client,
  settings: Settings,
  options: { id?: string; conversation: ConversationOptionsInput; live?: LiveFollowing },
): Promise<number> {
  // `@server:uri` mentions and `/prompt` read MCP_CONFIG's servers (src/client/chat-references.ts).
  const servers = new ChatServers(settings.mcpConfigPath);
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: process.stdin.isTTY,
    ...(process.stdin.isTTY ? { completer: servers.completer() } : {}),
  });
  let id = options.id;
  if (id !== undefined) {
    try {
      await status(client, id);
      console.log(`continuing ${id}`);
    } catch {
      console.log(`new conversation ${id}`);
      id = `new:${id}`;
    }
  }
  // On a terminal, each turn's tool calls and answer show as they happen (src/client/live-turn.ts).
  const live = LiveTurn.choose(client, { answerPrefix: 'claude> ', live: options.live });
  console.log(
    'type a message (@server:uri attaches a resource, Tab completes it); /prompt SERVER/NAME [K=V…], /resources, /thinking SPEC, /context SPEC, /history, /status, /end, /quit',
  );
  // The options a new conversation starts with: /thinking and /context before the first line change them.
  let conversation = options.conversation;
  try {
    for (;;) {
      let line: string;
      try {
        line = (await rl.question('you> ')).trim();
      } catch {
        return 0; // stdin closed
      }
      if (line === '') continue;
      if (line === '/quit') return 0;
      try {
        if (line === '/resources') {
          console.log(renderResources({ listed: await servers.resources(true) }));
          continue;
        }
        const setting = /^\/(thinking|context)(?:\s+(\S+))?$/.exec(line);
        if (setting) {
          const [, what, spec] = setting;
          if (spec === undefined) {
            console.log(what === 'thinking' ? 'usage: /thinking off|adaptive|adaptive:EFFORT|BUDGET' : 'usage: /context keep_all|last_turns:N|placeholder_tool_results:N|summarize:N|compact[:TRIGGER]|clear_tool_uses:N[:TRIGGER]');
            continue;
          }
          const started = id !== undefined && !id.startsWith('new:');
          if (what === 'thinking') {
            const thinking = parseThinking(spec);
            if (started) console.log(`thinking: ${await setThinking(client, id as string, thinking)} (from the next turn)`);
            else {
              const rest = { ...conversation };
              delete rest.thinking;
              conversation = thinking !== null ? { ...rest, thinking } : rest;
              console.log(`thinking: ${formatThinking(thinking)} (for the conversation the next line starts)`);
            }
          } else {
            const strategy = parseContextStrategy(spec);
            if (started) console.log(`context: ${await setContextStrategy(client, id as string, strategy)} (from the next Claude call)`);
            else {
              conversation = { ...conversation, context: strategy };
              console.log(`context: ${spec} (for the conversation the next line starts)`);
            }
          }
          continue;
        }
        if (line === '/history' || line === '/status' || line === '/end') {
          if (id === undefined || id.startsWith('new:')) {
            console.log('(no conversation yet)');
            continue;
          }
          if (line === '/history') console.log(renderHistory(await history(client, id)));
          if (line === '/status') console.log(renderStatus(await status(client, id)));
          if (line === '/end') {
            const summary = await endConversation(client, id);
            console.log(`ended: ${summary.status.turnsCompleted} turns`);
            return 0;
          }
          continue;
        }
        // Attachments and prompts are read before anything is sent: a bad one is refused here.
        const { text, content } = await servers.turnOf(line);
        const extra = content !== undefined ? { content } : {};
        const messageId = randomUUID();
        const newId = id === undefined ? newConversationId() : id.startsWith('new:') ? id.slice(4) : undefined;
        const current = newId ?? id ?? '';
        const turn = (): Promise<TurnResult | undefined> =>
          newId !== undefined
            ? startConversation({ client, taskQueue: settings.taskQueue }, text, {
                id: newId,
                messageId,
                ...extra,
                wait: true,
                conversation,
                defaultModel: settings.model,
                defaultServerTools: settings.serverTools,
              }).then((started) => {
                id = started.id;
                if (!live) console.log(`(conversation ${started.id})`);
                return started.result;
              })
            : sendMessage(client, current, text, { messageId, ...extra });
        // Live, the new conversation's id comes first: the answer streams after it.
        if (live && newId !== undefined) console.log(`(conversation ${newId})`);
        // A tool call that waits for approval, and a server's request for input, are asked about
        // inline, one question at a time (src/client/turn-prompts.ts).
        const asking = (): Promise<TurnResult | undefined> =>
          promptWhileTurnRuns(client, current, turn(), [approvalPrompt(client, rl, current), inputPrompt(client, rl, current)]);
        const { result, answered } = live ? await live.run(current, messageId, asking) : { result: await asking(), answered: false };
        if (result) {
          if (!answered) console.log(`claude> ${result.text}`);
          if (result.status !== 'completed') console.log(`[turn ended: ${result.status}${result.error ? ` — ${result.error}` : ''}]`);
        }
      } catch (err) {
        console.error(`mcp-host: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  } finally {
    rl.close();
    await servers.close();
  }
}
