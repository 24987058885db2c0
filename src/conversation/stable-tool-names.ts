/**
 * Claude-visible tool names that stay the same for a whole conversation. The MCP layer names tools
 * from the servers it can reach now (`src/mcp/tool-names.ts`): `add` listed by two servers becomes
 * `a__add` and `b__add`, and when `b` drops out a's tool is `add` again. Earlier `tool_use` blocks in
 * the history would then name a tool that no longer exists. So the conversation keeps every name it
 * gave out, per (server, MCP tool), and each new catalogue is renamed to match: a tool keeps the name
 * it had; a new tool keeps the catalogue's name unless the conversation already gave that name to
 * another tool, then it gets a suffix. Names the conversation keeps for something else (its server
 * tools: an MCP tool named `web_search` beside the API's web search) are never given to an MCP tool
 * either. Pure and deterministic: workflow state.
 */
import { digestOf } from './digest';
import { fnv1a, hex8 } from './fnv1a';
import { toolRouteEntries } from './tool-routes';
import type { Tool, ToolCatalog, ToolRouteEntry } from './types';

/** The names a conversation gave out: `[server, MCP tool name, Claude name]`, oldest first. */
export type GivenToolNames = Array<[server: string, mcpName: string, claudeName: string]>;

const MAX_LENGTH = 64;

function refKey(server: string, mcpName: string): string {
  return `${server}\0${mcpName}`;
}

/** 32-bit FNV-1a as 8 hex digits: stable, no Node built-ins. */
function hash8(text: string): string {
  return hex8(fnv1a(text));
}

/**
 * The catalogue under the names this conversation gave out, and the names given out after it.
 * A catalogue that needs no renaming comes back as it is (same digest); a renamed one gets the
 * digest of what it now holds and remembers the listed digest in `sourceDigest`. A new tool listed
 * under one of the `reserved` names (the conversation's server tools) gets a suffix, as if the
 * conversation had given that name out already.
 */
export function withStableToolNames(
  listed: ToolCatalog,
  given: GivenToolNames,
  reserved: readonly string[] = [],
): { catalog: ToolCatalog; given: GivenToolNames } {
  const nameOf = new Map(given.map(([server, mcpName, claudeName]) => [refKey(server, mcpName), claudeName]));
  const owner = new Map(given.map(([server, mcpName, claudeName]) => [claudeName, refKey(server, mcpName)]));
  const entries = toolRouteEntries(listed);
  const taken = new Set<string>(reserved);
  const chosen: string[] = [];
  // Names already given out first, so that a new tool can never take one of them.
  entries.forEach(([, route], i) => {
    const kept = nameOf.get(refKey(route.server, route.name));
    if (kept !== undefined) {
      chosen[i] = kept;
      taken.add(kept);
    }
  });
  const added: GivenToolNames = [];
  entries.forEach(([listedName, route], i) => {
    if (chosen[i] !== undefined) return;
    const key = refKey(route.server, route.name);
    let name = listedName;
    for (let attempt = 0; taken.has(name) || (owner.has(name) && owner.get(name) !== key); attempt++) {
      name = `${listedName.slice(0, MAX_LENGTH - 9)}_${hash8(`${key}\0${attempt}`)}`;
    }
    chosen[i] = name;
    taken.add(name);
    added.push([route.server, route.name, name]);
  });
  const nextGiven = added.length > 0 ? [...given, ...added] : given;
  if (entries.every(([listedName], i) => chosen[i] === listedName)) return { catalog: listed, given: nextGiven };

  const renamed = new Map(entries.map(([listedName], i) => [listedName, chosen[i] as string]));
  const tools: Tool[] = listed.tools.map((t) => ({ ...t, name: renamed.get(t.name) ?? t.name }));
  const routes: ToolRouteEntry[] = entries.map(([, route], i) => [chosen[i] as string, route]);
  return {
    catalog: { digest: digestOf([tools, routes]), tools, routes, sourceDigest: listed.sourceDigest ?? listed.digest },
    given: nextGiven,
  };
}

/** The digest to give `listTools` as known: the one the MCP layer listed, before any renaming. */
export function listedDigestOf(catalog: ToolCatalog): string {
  return catalog.sourceDigest ?? catalog.digest;
}
