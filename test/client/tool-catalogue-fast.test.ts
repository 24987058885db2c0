import { renderCatalogue } from '../../src/client/tool-catalogue';

describe('mcp-host tools: fast tools', () => {
  test('a fast tool says so after the MCP name, beside its approval mode; other tools print as before', () => {
    expect(
      renderCatalogue([
        { claudeName: 'read_file', server: 'fs', mcpName: 'read_file', description: '', fast: true },
        { claudeName: 'write_file', server: 'fs', mcpName: 'write_file', description: '', approval: 'ask', fast: true },
        { claudeName: 'move_file', server: 'fs', mcpName: 'move_file', description: '', approval: 'deny' },
        { claudeName: 'stat', server: 'fs', mcpName: 'stat', description: '' },
      ]),
    ).toBe(
      [
        'CLAUDE NAME  SERVER  MCP NAME',
        'read_file    fs      read_file  (fast)',
        'write_file   fs      write_file  (approval: ask, fast)',
        'move_file    fs      move_file  (approval: deny)',
        'stat         fs      stat',
      ].join('\n'),
    );
  });
});
