import type { ConversationListing } from './commands';

function stamp(date: Date): string {
  return date.toISOString().replace('T', ' ').slice(0, 16);
}

/**
 * `mcp-host list`'s table: id, state, turns, tool calls, start time (UTC) and the last answer,
 * one line each (the answer cut to what is left of 160 columns).
 */
export function renderListing(rows: readonly ConversationListing[]): string {
  if (rows.length === 0) return '(no conversations)';
  const idWidth = Math.max(...rows.map((r) => r.id.length), 'ID'.length);
  const stateWidth = Math.max(...rows.map((r) => r.state.length), 'STATE'.length);
  const line = (id: string, state: string, turns: string, tools: string, started: string, last: string): string =>
    `${id.padEnd(idWidth)}  ${state.padEnd(stateWidth)}  ${turns.padStart(5)}  ${tools.padStart(5)}  ${started.padEnd(16)}  ${last}`.trimEnd();
  const room = Math.max(20, 160 - (idWidth + stateWidth + 5 + 5 + 16 + 10));
  return [
    line('ID', 'STATE', 'TURNS', 'TOOLS', 'STARTED (UTC)', 'LAST MESSAGE'),
    ...rows.map((r) => {
      const chars = Array.from((r.lastMessage ?? '').replace(/\s+/g, ' '));
      const last = chars.length > room ? `${chars.slice(0, room - 1).join('')}…` : chars.join('');
      return line(r.id, r.state, r.turns !== undefined ? String(r.turns) : '-', r.toolCalls !== undefined ? String(r.toolCalls) : '-', stamp(r.startTime), last);
    }),
  ].join('\n');
}
