import { renderServers } from '../../src/client/render-servers';
import type { ServerRow } from '../../src/client/server-row';

const connected: ServerRow = {
  name: 'everything',
  transport: 'stdio',
  command: '/usr/bin/node',
  args: ['server.js', 'stdio', 'two words', "it's"],
  health: 'connected',
  protocol: { version: '2025-06-18', era: 'legacy', source: 'remembered' },
  serverInfo: { name: 'mcp-servers/everything', version: '2.0.0' },
  capabilities: ['tools', 'resources', 'prompts', 'extension:io.example/ui'],
  tools: { count: 11, filteredOut: 2 },
  resources: { count: 7 },
  resourceTemplates: { error: 'MCP error -32603: boom' },
  prompts: { count: 1 },
  auth: 'none',
};

describe('renderServers', () => {
  test('a connected server: one block, values lined up, arguments quoted for a shell', () => {
    expect(renderServers([connected])).toBe(
      [
        'everything: connected',
        "  stdio         /usr/bin/node server.js stdio 'two words' 'it'\\''s'",
        '  protocol      2025-06-18 (legacy, remembered)',
        '  server        mcp-servers/everything 2.0.0',
        '  capabilities  tools, resources, prompts, extension:io.example/ui',
        '  tools         11 offered (2 more left out by the tools filter)',
        '  resources     7 resources; cannot list: MCP error -32603: boom',
        '  prompts       1 prompt',
        '  auth          none',
      ].join('\n'),
    );
  });

  test('HTTP with the SSE fallback, a failing server needing a login, blocks apart', () => {
    const rows: ServerRow[] = [
      {
        name: 'old',
        transport: 'http',
        sseFallback: true,
        url: 'http://127.0.0.1:1/sse?key=[redacted]',
        health: 'connected',
        protocol: { version: '2025-06-18', era: 'legacy', source: 'probed' },
        capabilities: [],
        tools: { error: 'timed out' },
        auth: 'logged in',
      },
      { name: 'remote', transport: 'http', url: 'https://mcp.example.com/mcp', health: 'failing', error: 'needs an OAuth login', auth: 'login needed' },
    ];
    expect(renderServers(rows)).toBe(
      [
        'old: connected',
        '  http→sse      http://127.0.0.1:1/sse?key=[redacted]',
        '  protocol      2025-06-18 (legacy, probed)',
        '  server        (unnamed)',
        '  capabilities  (none)',
        '  tools         cannot list: timed out',
        '  resources     not declared',
        '  prompts       not declared',
        '  auth          logged in',
        '',
        'remote: failing: needs an OAuth login',
        '  http          https://mcp.example.com/mcp',
        '  auth          login needed (run: mcp-host login remote)',
      ].join('\n'),
    );
  });

  test('no servers', () => {
    expect(renderServers([])).toBe('(no MCP servers configured)');
  });
});
