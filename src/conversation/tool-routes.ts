/**
 * Looking up the catalogue's routes by the name Claude used. A name is only ever compared with the
 * catalogue's own entries: `constructor`, `toString`, `__proto__` and the rest of an object's
 * prototype are names like any other, found only when a server really lists such a tool.
 *
 * Catalogues recorded before routes became pairs hold a plain object (`RecordedToolRoutes`); it is
 * read by own properties only, so a recorded conversation (whose tool names were ordinary) finds the
 * same routes as when it ran and replays unchanged. Pure: the workflow sandbox imports it.
 */
import type { ToolCatalog, ToolRoute, ToolRouteEntry } from './types';

/** Every route of the catalogue as `[Claude name, route]`, in catalogue order, whichever form it was recorded in. */
export function toolRouteEntries(catalog: ToolCatalog): ToolRouteEntry[] {
  const { routes } = catalog;
  if (Array.isArray(routes)) return routes;
  // Own keys only; a JSON-parsed object holds `__proto__` as an own key, never as its prototype.
  return Object.keys(routes).map((name): ToolRouteEntry => [name, routes[name] as ToolRoute]);
}

/** The route of the tool Claude called `name`, or undefined when the catalogue (if any) has none by that name. */
export function findToolRoute(catalog: ToolCatalog | null, name: string): ToolRoute | undefined {
  if (catalog === null) return undefined;
  const { routes } = catalog;
  if (Array.isArray(routes)) return routes.find(([claudeName]) => claudeName === name)?.[1];
  return Object.hasOwn(routes, name) ? routes[name] : undefined;
}
