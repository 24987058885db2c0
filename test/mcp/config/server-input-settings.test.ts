import { routeInputPolicies } from '../../../src/input/server-input-policy';
import { configError, parse } from './parse-helpers';

const server = (extra: Record<string, unknown>) => ({ mcpServers: { s: { command: 'node', ...extra } } });

describe('mcp.json elicitation, sampling and roots', () => {
  test('read when set, absent otherwise', () => {
    expect(parse(server({ elicitation: 'decline', sampling: 'auto', roots: ['file:///srv/docs', 'git://repo'] }))[0]).toMatchObject({
      elicitation: 'decline',
      sampling: 'auto',
      roots: ['file:///srv/docs', 'git://repo'],
    });
    const plain = parse(server({}))[0];
    expect(plain).not.toHaveProperty('elicitation');
    expect(plain).not.toHaveProperty('sampling');
    expect(plain).not.toHaveProperty('roots');
  });

  test.each([
    [{ elicitation: 'maybe' }, 'elicitation', 'must be one of "ask", "decline"'],
    [{ sampling: true }, 'sampling', 'must be one of "ask", "auto", "deny"'],
    [{ roots: 'file:///x' }, 'roots', 'must be an array of URIs'],
    [{ roots: ['/srv/docs'] }, 'roots[0]', 'must be a URI such as file:///srv/docs'],
  ])('%j is refused, naming %s', (extra, field, detail) => {
    const err = configError(() => parse(server(extra)));
    expect(err.message).toContain(field);
    expect(err.message).toContain(detail);
  });

  test('routes carry the policies only when not ask, so catalogues without them keep their digest', () => {
    expect(routeInputPolicies({})).toEqual({});
    expect(routeInputPolicies({ elicitation: 'ask', sampling: 'ask' })).toEqual({});
    expect(routeInputPolicies({ elicitation: 'decline', sampling: 'deny' })).toEqual({ elicitation: 'decline', sampling: 'deny' });
  });
});
