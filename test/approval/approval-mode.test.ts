import { isApprovalMode, routeApprovalMode, toolApprovalMode } from '../../src/approval/approval-mode';
import { configError, parse } from '../mcp/config/parse-helpers';

describe('approval modes (src/approval/approval-mode.ts)', () => {
  test('a tool override wins over the server default, which wins over auto', () => {
    const server = { approval: 'ask' as const, toolApproval: { read_file: 'auto' as const, rm: 'deny' as const } };
    expect(toolApprovalMode(server, 'read_file')).toBe('auto');
    expect(toolApprovalMode(server, 'rm')).toBe('deny');
    expect(toolApprovalMode(server, 'write_file')).toBe('ask');
    expect(toolApprovalMode({}, 'write_file')).toBe('auto');
    expect(toolApprovalMode({ toolApproval: { write_file: 'ask' } }, 'write_file')).toBe('ask');
    expect(toolApprovalMode({ toolApproval: { write_file: 'ask' } }, 'read_file')).toBe('auto');
  });

  test('names from the prototype are tool names like any other', () => {
    expect(toolApprovalMode({ approval: 'ask' }, 'constructor')).toBe('ask');
    expect(toolApprovalMode({ approval: 'deny', toolApproval: {} }, 'toString')).toBe('deny');
  });

  test('a route without a mode is auto', () => {
    expect(routeApprovalMode(undefined)).toBe('auto');
    expect(routeApprovalMode({})).toBe('auto');
    expect(routeApprovalMode({ approval: 'ask' })).toBe('ask');
  });

  test.each([['auto', true], ['ask', true], ['deny', true], ['Ask', false], ['', false], [true, false], [undefined, false]])('isApprovalMode(%j) is %j', (value, expected) => {
    expect(isApprovalMode(value)).toBe(expected);
  });
});

describe('approval in mcp.json', () => {
  test('server default and per-tool overrides are read; absent means no keys at all', () => {
    const [a, b, c] = parse({
      mcpServers: {
        a: { command: 'a', approval: 'ask', toolApproval: { read_file: 'auto', delete_file: 'deny' } },
        b: { url: 'http://localhost/mcp', toolApproval: { send: 'ask' } },
        c: { command: 'c' },
      },
    });
    expect(a).toMatchObject({ approval: 'ask', toolApproval: { read_file: 'auto', delete_file: 'deny' } });
    expect(b).toMatchObject({ transport: 'http', toolApproval: { send: 'ask' } });
    expect(b).not.toHaveProperty('approval');
    expect(c).not.toHaveProperty('approval');
    expect(c).not.toHaveProperty('toolApproval');
  });

  test.each([
    ['approval not a mode', { command: 'x', approval: 'never' }, 'approval', /"approval" must be one of "auto", "ask", "deny", not "never"/],
    ['approval not a string', { command: 'x', approval: true }, 'approval', /"approval" must be one of "auto", "ask", "deny", not true/],
    ['toolApproval not an object', { command: 'x', toolApproval: ['rm'] }, 'toolApproval', /"toolApproval" must be an object of tool name/],
    ['toolApproval bad mode', { command: 'x', toolApproval: { rm: 'no' } }, 'toolApproval.rm', /"toolApproval\.rm" must be one of "auto", "ask", "deny", not "no"/],
    ['toolApproval empty name', { command: 'x', toolApproval: { '': 'ask' } }, 'toolApproval', /"toolApproval" has an empty tool name/],
  ])('%s is a clear config error', (_label, entry, field, pattern) => {
    const err = configError(() => parse({ mcpServers: { srv: entry } }));
    expect(err.message).toMatch(/^mcp\.json: server "srv": /);
    expect(err.message).toMatch(pattern);
    expect(err.field).toBe(field);
  });
});
