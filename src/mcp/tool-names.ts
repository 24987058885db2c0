import { fnv1a, hex8 } from '../conversation/fnv1a';

/** One tool as an MCP server names it: the server's config name and the tool's MCP name. */
export interface McpToolRef {
  server: string;
  name: string;
}

/** What Claude's Messages API accepts as a tool name. */
const CLAUDE_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
/** `_` plus 8 hex digits. */
const SUFFIX_LENGTH = 9;

/**
 * Gives every MCP tool a Claude tool name, so that a `tool_use` from Claude maps back to
 * exactly one (server, tool) pair.
 *
 * Returns Claude tool names, same order as input, each matching `^[a-zA-Z0-9_-]{1,64}$`,
 * all distinct, deterministic (same input set → same names regardless of order).
 *
 * - A name that is already valid and used by only one server is kept unchanged, so the
 *   common case sends Claude the names the server author chose.
 * - A name used by several servers becomes `<server>__<name>` on each of them.
 * - Other characters become `_`.
 * - A derived name that would still collide, or that is over 64 characters, is cut and
 *   given `_` plus an 8-hex-digit hash of `server + "\0" + name`, so it stays stable
 *   across runs and distinct from its neighbours.
 *
 * The function is pure and uses no Node APIs, so workflow code may call it.
 *
 * @throws Error when the same (server, name) pair appears twice: a server listing a tool
 *   twice is a server bug, and the caller decides whether to drop the server.
 */
export function assignClaudeToolNames(tools: readonly McpToolRef[]): string[] {
  const seen = new Set<string>();
  const serversByName = new Map<string, Set<string>>();
  for (const tool of tools) {
    const key = refKey(tool);
    if (seen.has(key)) {
      throw new Error(
        `MCP server ${JSON.stringify(tool.server)} lists the tool ${JSON.stringify(tool.name)} more than once`,
      );
    }
    seen.add(key);
    const servers = serversByName.get(tool.name) ?? new Set<string>();
    servers.add(tool.server);
    serversByName.set(tool.name, servers);
  }

  const names: Array<string | undefined> = new Array<string | undefined>(tools.length);
  const taken = new Set<string>();

  // Pass 1: names kept as they are. They are distinct because each is used by one server only.
  const derived: number[] = [];
  tools.forEach((tool, i) => {
    const shared = (serversByName.get(tool.name)?.size ?? 0) > 1;
    if (!shared && CLAUDE_TOOL_NAME.test(tool.name)) {
      names[i] = tool.name;
      taken.add(tool.name);
    } else {
      derived.push(i);
    }
  });

  // Pass 2: derived names that collide with nothing. Kept names win over derived ones.
  const bases = new Map<number, string>();
  const candidates = new Map<number, string>();
  const candidateCount = new Map<string, number>();
  for (const i of derived) {
    const tool = tools[i] as McpToolRef;
    const shared = (serversByName.get(tool.name)?.size ?? 0) > 1;
    const base = shared ? `${sanitize(tool.server)}__${sanitize(tool.name)}` : sanitize(tool.name);
    const candidate = base.length <= MAX_LENGTH ? base : withHash(base, hashRef(tool, 0));
    bases.set(i, base);
    candidates.set(i, candidate);
    candidateCount.set(candidate, (candidateCount.get(candidate) ?? 0) + 1);
  }
  const colliding: number[] = [];
  for (const i of derived) {
    const candidate = candidates.get(i) as string;
    if (candidateCount.get(candidate) === 1 && !taken.has(candidate)) {
      names[i] = candidate;
      taken.add(candidate);
    } else {
      colliding.push(i);
    }
  }

  // Pass 3: colliding names get hash suffixes. Sorting by (server, name) makes any
  // further tie-breaking independent of input order.
  colliding.sort((a, b) => compareRefs(tools[a] as McpToolRef, tools[b] as McpToolRef));
  for (const i of colliding) {
    const tool = tools[i] as McpToolRef;
    const base = bases.get(i) as string;
    // A long name already carries attempt 0's hash, and that is what collided.
    let attempt = base.length <= MAX_LENGTH ? 0 : 1;
    let name = withHash(base, hashRef(tool, attempt));
    while (taken.has(name)) {
      attempt++;
      name = withHash(base, hashRef(tool, attempt));
    }
    names[i] = name;
    taken.add(name);
  }

  return names as string[];
}

function refKey(tool: McpToolRef): string {
  return `${tool.server}\0${tool.name}`;
}

function compareRefs(a: McpToolRef, b: McpToolRef): number {
  const ka = refKey(a);
  const kb = refKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Every code point outside `[a-zA-Z0-9_-]` becomes `_`; an empty result becomes `tool`. */
function sanitize(text: string): string {
  const cleaned = text.replace(/[^a-zA-Z0-9_-]/gu, '_');
  return cleaned === '' ? 'tool' : cleaned;
}

function withHash(base: string, hash: string): string {
  return `${base.slice(0, MAX_LENGTH - SUFFIX_LENGTH)}_${hash}`;
}

/**
 * 32-bit FNV-1a over the UTF-16 code units of `server \0 name` (plus the attempt number
 * after the first try), as 8 hex digits. Not cryptographic: it only needs to be stable
 * and spread well, and it must not depend on node:crypto so that workflows can run it.
 */
function hashRef(tool: McpToolRef, attempt: number): string {
  const input = attempt === 0 ? refKey(tool) : `${refKey(tool)}\0${attempt}`;
  return hex8(fnv1a(input));
}
