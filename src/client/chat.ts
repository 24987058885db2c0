import type { Client } from '@temporalio/client';
import * as readline from 'node:readline/promises';
import type { Settings } from '../config/settings';
import { endConversation, history, sendMessage, startConversation, status } from './commands';
import type { ConversationOptionsInput } from './conversation-options';
import { renderHistory } from './render-history';
import { renderStatus } from './render-status';

/**
 * The `chat` REPL: each line is a user turn (sent as an update, answered when the turn is done).
 * `/history`, `/status`, `/end` and `/quit` are commands. With `--id` of an existing conversation
 * it continues that one; otherwise the first line starts a new one.
 */
export async function runChat(
  client: Client,
  settings: Settings,
  options: { id?: string; conversation: ConversationOptionsInput },
): Promise<number> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
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
  console.log('type a message; /history, /status, /end, /quit');
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
        const result =
          id === undefined || id.startsWith('new:')
            ? await startConversation({ client, taskQueue: settings.taskQueue }, line, {
                ...(id !== undefined ? { id: id.slice(4) } : {}),
                wait: true,
                conversation: options.conversation,
                defaultModel: settings.model,
              }).then((started) => {
                id = started.id;
                console.log(`(conversation ${started.id})`);
                return started.result;
              })
            : await sendMessage(client, id, line);
        if (result) {
          console.log(`claude> ${result.text}`);
          if (result.status !== 'completed') console.log(`[turn ended: ${result.status}${result.error ? ` — ${result.error}` : ''}]`);
        }
      } catch (err) {
        console.error(`mcp-host: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  } finally {
    rl.close();
  }
}
