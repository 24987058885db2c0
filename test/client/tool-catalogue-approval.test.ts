import { renderCatalogue } from '../../src/client/tool-catalogue';

describe('mcp-host tools: tool approval', () => {
  test('a tool that is not auto says its mode after the MCP name; auto tools print as before', () => {
    expect(
      renderCatalogue([
        { claudeName: 'read_file', server: 'fs', mcpName: 'read_file', description: '' },
        { claudeName: 'write_file', server: 'fs', mcpName: 'write_file', description: '', approval: 'ask' },
        { claudeName: 'move_file', server: 'fs', mcpName: 'move_file', description: '', approval: 'deny' },
      ]),
    ).toBe(
      [
        'CLAUDE NAME  SERVER  MCP NAME',
        'read_file    fs      read_file',
        'write_file   fs      write_file  (approval: ask)',
        'move_file    fs      move_file  (approval: deny)',
      ].join('\n'),
    );
  });
});
