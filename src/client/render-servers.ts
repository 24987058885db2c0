import type { ListedCount, ServerRow, ToolCount } from './server-row';

/** Words a shell takes as they are; any other argument is shown single-quoted. */
const PLAIN_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;
/** Labels are padded to this, so the values line up. */
const LABEL_WIDTH = 'capabilities'.length + 2;

function shellWord(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function field(label: string, value: string): string {
  return `  ${label.padEnd(LABEL_WIDTH)}${value}`;
}

function listed(count: ListedCount | undefined, noun: string): string {
  if (count === undefined) return 'not declared';
  return 'error' in count ? `cannot list: ${count.error}` : `${count.count} ${noun}${count.count === 1 ? '' : 's'}`;
}

function tools(count: ToolCount | undefined): string {
  if (count === undefined) return '-';
  if ('error' in count) return `cannot list: ${count.error}`;
  const kept = count.filteredOut !== undefined && count.filteredOut > 0 ? ` (${count.filteredOut} more left out by the tools filter)` : '';
  return `${count.count} offered${kept}`;
}

function transportLine(row: ServerRow): string {
  const label = row.sseFallback === true ? 'http→sse' : row.transport;
  const target = row.transport === 'stdio' ? [row.command ?? '', ...(row.args ?? [])].map(shellWord).join(' ') : (row.url ?? '');
  return field(label, target);
}

function block(row: ServerRow): string[] {
  const lines = [`${row.name}: ${row.health === 'connected' ? 'connected' : `failing: ${row.error ?? ''}`}`, transportLine(row)];
  if (row.protocol !== undefined) lines.push(field('protocol', `${row.protocol.version} (${row.protocol.era}, ${row.protocol.source})`));
  if (row.health === 'connected') {
    lines.push(
      field('server', row.serverInfo !== undefined ? `${row.serverInfo.name} ${row.serverInfo.version}` : '(unnamed)'),
      field('capabilities', row.capabilities !== undefined && row.capabilities.length > 0 ? row.capabilities.join(', ') : '(none)'),
      field('tools', tools(row.tools)),
      field('resources', row.resources === undefined ? 'not declared' : `${listed(row.resources, 'resource')}; ${listed(row.resourceTemplates, 'template')}`),
      field('prompts', listed(row.prompts, 'prompt')),
    );
  }
  lines.push(field('auth', row.auth === 'login needed' ? `login needed (run: mcp-host login ${row.name})` : row.auth));
  return lines;
}

/**
 * `mcp-host servers` for a person: one block per server, in config order, a blank line between:
 * name and health, transport and command or URL, then (connected) protocol, serverInfo,
 * capabilities, counts, and always auth.
 */
export function renderServers(rows: readonly ServerRow[]): string {
  if (rows.length === 0) return '(no MCP servers configured)';
  return rows.map((row) => block(row).join('\n')).join('\n\n');
}
