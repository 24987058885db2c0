/**
 * Route lookup by the name Claude used: only the catalogue's own entries count, in the pairs the
 * catalogue is built with and in the plain object that recorded histories hold.
 */
import { findToolRoute, toolRouteEntries } from '../../src/conversation/tool-routes';
import type { ToolCatalog, ToolRoute } from '../../src/conversation/types';

const route = (name: string): ToolRoute => ({ server: 'lab', name, idempotent: false, timeoutMs: 60_000 });
const PROTOTYPE_KEYS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__', 'isPrototypeOf'];

/** A catalogue as it arrives in a workflow: through JSON, like every Temporal payload. */
function viaJson(catalog: ToolCatalog): ToolCatalog {
  return JSON.parse(JSON.stringify(catalog)) as ToolCatalog;
}

describe('findToolRoute', () => {
  const pairs: ToolCatalog = { digest: 'd', tools: [], routes: [['add', route('add')], ['__proto__', route('__proto__')], ['constructor', route('constructor')]] };

  test('pairs: a listed name finds its route, prototype-named tools included, after a JSON round trip too', () => {
    for (const catalog of [pairs, viaJson(pairs)]) {
      expect(findToolRoute(catalog, 'add')).toEqual(route('add'));
      expect(findToolRoute(catalog, '__proto__')).toEqual(route('__proto__'));
      expect(findToolRoute(catalog, 'constructor')).toEqual(route('constructor'));
      expect(findToolRoute(catalog, 'toString')).toBeUndefined();
      expect(findToolRoute(catalog, 'missing')).toBeUndefined();
    }
  });

  test('no catalogue, or an empty one, finds nothing, whatever the name', () => {
    for (const name of ['add', ...PROTOTYPE_KEYS]) {
      expect(findToolRoute(null, name)).toBeUndefined();
      expect(findToolRoute({ digest: 'd', tools: [], routes: [] }, name)).toBeUndefined();
      expect(findToolRoute({ digest: 'd', tools: [], routes: {} }, name)).toBeUndefined();
    }
  });

  test('the recorded object form: own names only, so prototype keys find nothing and a recorded route is found as before', () => {
    const recorded = viaJson({ digest: 'd', tools: [], routes: { get_weather: route('get_weather') } });
    expect(findToolRoute(recorded, 'get_weather')).toEqual(route('get_weather'));
    for (const name of PROTOTYPE_KEYS) expect(findToolRoute(recorded, name)).toBeUndefined();
  });

  test('the recorded object form read from JSON keeps "__proto__" as an own name, not as the prototype', () => {
    const recorded = JSON.parse('{"digest":"d","tools":[],"routes":{"__proto__":{"server":"lab","name":"__proto__","idempotent":false,"timeoutMs":60000}}}') as ToolCatalog;
    expect(findToolRoute(recorded, '__proto__')).toEqual(route('__proto__'));
    expect(findToolRoute(recorded, 'server')).toBeUndefined();
    expect(toolRouteEntries(recorded)).toEqual([['__proto__', route('__proto__')]]);
  });
});

describe('toolRouteEntries', () => {
  test('both forms give the same pairs in the same order', () => {
    const entries: Array<[string, ToolRoute]> = [['b', route('b')], ['a', route('a')]];
    expect(toolRouteEntries({ digest: 'd', tools: [], routes: entries })).toEqual(entries);
    expect(toolRouteEntries({ digest: 'd', tools: [], routes: { b: route('b'), a: route('a') } })).toEqual(entries);
  });
});
