/** mcp.json `deferLoading` and `alwaysLoaded` (tool search, issue 29): read like `fast` and `fastTools`. */
import { configError, parse } from './parse-helpers';

const server = (extra: Record<string, unknown>): unknown => ({ mcpServers: { docs: { command: 'node', ...extra } } });

describe('deferLoading and alwaysLoaded', () => {
  test('absent when not set; read when set', () => {
    const [plain] = parse(server({}));
    expect(plain).not.toHaveProperty('deferLoading');
    expect(plain).not.toHaveProperty('alwaysLoaded');
    const [set] = parse(server({ deferLoading: true, alwaysLoaded: ['search_docs'] }));
    expect(set).toMatchObject({ deferLoading: true, alwaysLoaded: ['search_docs'] });
  });

  test('wrong types are refused with the field named', () => {
    expect(configError(() => parse(server({ deferLoading: 'yes' }))).message).toMatch(/"deferLoading" must be true or false, not "yes"/);
    expect(configError(() => parse(server({ alwaysLoaded: 'search_docs' }))).message).toMatch(/"alwaysLoaded" must be an array of tool names/);
    expect(configError(() => parse(server({ alwaysLoaded: [''] }))).message).toMatch(/"alwaysLoaded\[0\]" must be a non-empty string/);
  });
});
