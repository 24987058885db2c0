import { isAbsolute, resolve } from 'node:path';

import { McpConfigError } from './config-error';
import { describeType, describeValue, isArray, isPlainObject } from './describe-json';
import { expandVariables } from './expand-variables';
import { parseOAuthConfig } from '../oauth/oauth-config';
import { isModernVersion, SPOKEN_PROTOCOL_VERSIONS } from '../transport/protocol-versions';
import type { McpServerConfig, ParseMcpConfigOptions, ToolFilter } from './mcp-server-config';
import { APPROVAL_MODES, isApprovalMode, type ApprovalMode, type ServerApproval } from '../../approval/approval-mode';
import type { ServerFastTools } from '../fast-tools';
import type { ServerToolLoading } from '../tool-loading';
import { ELICITATION_POLICIES, SAMPLING_POLICIES, type ServerInputSettings } from '../../input/server-input-policy';

const SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Keys a server entry may have, across Claude Desktop, Claude Code, Cursor and VS Code. */
const KNOWN_KEYS: ReadonlySet<string> = new Set([
  'type',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'oauth',
  'description',
  'disabled',
  'tools',
  'timeoutMs',
  'protocolVersion',
  'approval',
  'toolApproval',
  'fast',
  'fastTools',
  'deferLoading',
  'alwaysLoaded',
  'elicitation',
  'sampling',
  'roots',
  'envFile',
]);
const STDIO_ONLY_KEYS = ['args', 'env', 'cwd'] as const;
const TYPES = ['stdio', 'http', 'sse', 'streamable-http'] as const;
type DeclaredType = (typeof TYPES)[number];

/** setTimeout fires at once for delays above 2^31-1 ms, so a larger timeout would mean "no wait". */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Validation context for one server entry; `fail` throws with the location filled in. */
interface EntryContext {
  readonly options: ParseMcpConfigOptions;
  readonly server: string;
  fail(field: string | undefined, detail: string): never;
}

/**
 * Reads one entry of `mcpServers` (or VS Code's `servers`): `{command, args?, env?, cwd?}` (stdio)
 * or `{url, headers?}` (HTTP), with an optional `type`, plus the host's extensions
 * `tools: {allow?, deny?}`, `timeoutMs`, `protocolVersion` (a pinned MCP revision), `disabled: true`, and tool approval: `approval: "auto" | "ask" | "deny"`
 * (the server's default) with `toolApproval: {TOOL: mode}` overrides per MCP tool name, and fast tools
 * (calls run as local activities, src/mcp/fast-tools.ts): `fast: true` (all the server's tools) or
 * `fastTools: [TOOL, …]` (MCP tool names), and deferred loading under tool search (src/mcp/tool-loading.ts):
 * `deferLoading: true | false` and `alwaysLoaded: [TOOL, …]`. `${VAR}` references are expanded in
 * command, args, env values, cwd, url and header values (see {@link expandVariables}).
 *
 * @param name The entry's key: the server's name.
 * @param entry The entry's value as parsed from JSON.
 * @returns The normalised server, or undefined for a disabled entry.
 * @throws McpConfigError naming the source, server and field of the first problem; never an
 *   `env` or `headers` value.
 */
export function parseServerEntry(name: string, entry: unknown, options: ParseMcpConfigOptions): McpServerConfig | undefined {
  const ctx: EntryContext = {
    options,
    server: name,
    fail(field, detail): never {
      throw new McpConfigError(
        field === undefined ? detail : `"${field}" ${detail}`,
        field === undefined ? { source: options.source, server: name } : { source: options.source, server: name, field },
      );
    },
  };

  if (!isPlainObject(entry)) ctx.fail(undefined, `must be an object, not ${describeType(entry)}`);
  // Checked first so that a disabled entry can be parked in the file half-written.
  if (entry.disabled !== undefined && typeof entry.disabled !== 'boolean') {
    ctx.fail('disabled', `must be true or false, not ${describeType(entry.disabled)}`);
  }
  if (entry.disabled === true) return undefined;

  if (!SERVER_NAME.test(name)) {
    ctx.fail(
      undefined,
      'the server name must be 1 to 64 characters of letters, digits, "_", "." or "-" (it prefixes tool names and log lines)',
    );
  }

  const unknown = Object.keys(entry).filter((k) => !KNOWN_KEYS.has(k));
  if (unknown.length > 0) {
    ctx.fail(
      undefined,
      `unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.map((k) => JSON.stringify(k)).join(', ')}; ` +
        `known keys are ${[...KNOWN_KEYS].filter((k) => k !== 'envFile').join(', ')}`,
    );
  }
  if (entry.envFile !== undefined) {
    ctx.fail('envFile', 'is not supported; put the variables in "env" (with ${VAR} references) instead');
  }
  if (entry.description !== undefined && typeof entry.description !== 'string') {
    ctx.fail('description', `must be a string, not ${describeType(entry.description)}`);
  }

  let declared: DeclaredType | undefined;
  if (entry.type !== undefined) {
    if (!(TYPES as readonly unknown[]).includes(entry.type)) {
      ctx.fail('type', `must be one of ${TYPES.map((t) => `"${t}"`).join(', ')}, not ${describeValue(entry.type)}`);
    }
    declared = entry.type as DeclaredType;
  }

  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand && hasUrl) {
    ctx.fail(undefined, 'has both "command" (stdio) and "url" (HTTP); a server needs exactly one of them');
  }
  if (!hasCommand && !hasUrl) {
    ctx.fail('command', 'is missing: a server needs "command" (stdio) or "url" (HTTP)');
  }
  if (declared === 'stdio' && !hasCommand) ctx.fail('command', 'is missing: "type" is "stdio"');
  if (declared !== undefined && declared !== 'stdio' && !hasUrl) {
    ctx.fail('url', `is missing: "type" is "${declared}"`);
  }

  const tools = parseToolFilter(entry.tools, ctx);
  const timeoutMs = parseTimeout(entry.timeoutMs, ctx);
  const protocolVersion = parseProtocolVersion(entry.protocolVersion, ctx);
  const extras = {
    ...(timeoutMs === undefined ? { tools } : { tools, timeoutMs }),
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
    ...parseApproval(entry, ctx),
    ...parseFastTools(entry, ctx),
    ...parseToolLoading(entry, ctx),
    ...parseInputSettings(entry, ctx),
  };

  if (hasCommand) {
    if (entry.headers !== undefined) ctx.fail('headers', 'applies only to HTTP servers (with "url")');
    if (entry.oauth !== undefined) ctx.fail('oauth', 'applies only to HTTP servers (with "url")');
    const command = expandString(requireString(entry.command, 'command', ctx), 'command', ctx);
    if (command.trim() === '') ctx.fail('command', 'must not be empty');
    const args = parseStringArray(entry.args, 'args', ctx);
    const env = parseStringMap(entry.env, 'env', ctx);
    const cwd =
      entry.cwd === undefined ? undefined : expandString(requireString(entry.cwd, 'cwd', ctx), 'cwd', ctx);
    return {
      name,
      transport: 'stdio',
      command: resolveCommand(command, options.baseDir),
      args,
      env,
      ...(cwd === undefined || cwd === '' ? {} : { cwd: resolve(options.baseDir, cwd) }),
      ...extras,
    };
  }

  for (const key of STDIO_ONLY_KEYS) {
    if (entry[key] !== undefined) ctx.fail(key, 'applies only to stdio servers (with "command")');
  }
  const rawUrl = requireString(entry.url, 'url', ctx);
  const url = expandString(rawUrl, 'url', ctx);
  if (!isHttpUrl(url)) {
    // The raw value is shown, not the expanded one: an expanded URL may carry a token.
    ctx.fail(
      'url',
      `is not a valid URL: ${JSON.stringify(rawUrl)}` +
        (url === rawUrl ? '' : ' (after ${...} expansion)') +
        ' (it must be an absolute http: or https: URL)',
    );
  }
  const headers = parseStringMap(entry.headers, 'headers', ctx);
  const oauth = parseOAuthConfig(entry.oauth, (field, detail) => ctx.fail(field, detail), (value, field) => expandString(value, field, ctx));
  if (declared === 'sse' && protocolVersion !== undefined && isModernVersion(protocolVersion)) {
    ctx.fail('protocolVersion', `${JSON.stringify(protocolVersion)} cannot be spoken over the legacy SSE transport ("type": "sse"), which predates it; use "type": "http"`);
  }
  return { name, transport: declared === 'sse' ? 'sse' : 'http', url, headers, ...(oauth !== undefined ? { oauth } : {}), ...extras };
}

function parseToolFilter(value: unknown, ctx: EntryContext): ToolFilter {
  if (value === undefined) return {};
  if (!isPlainObject(value)) ctx.fail('tools', `must be an object like {"allow": [...], "deny": [...]}, not ${describeType(value)}`);
  const unknown = Object.keys(value).filter((k) => k !== 'allow' && k !== 'deny');
  if (unknown.length > 0) {
    ctx.fail('tools', `has unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.map((k) => JSON.stringify(k)).join(', ')}; known keys are allow, deny`);
  }
  const filter: ToolFilter = {};
  for (const key of ['allow', 'deny'] as const) {
    const list = value[key];
    if (list === undefined) continue;
    if (!isArray(list)) ctx.fail(`tools.${key}`, `must be an array of tool names, not ${describeType(list)}`);
    filter[key] = list.map((item, i) => {
      if (typeof item !== 'string' || item === '') {
        ctx.fail(`tools.${key}[${i}]`, `must be a non-empty string (a tool name), not ${describeValue(item)}`);
      }
      return item;
    });
  }
  return filter;
}

const MODES_TEXT = APPROVAL_MODES.map((m) => `"${m}"`).join(', ');

function approvalMode(value: unknown, field: string, ctx: EntryContext): ApprovalMode {
  if (!isApprovalMode(value)) ctx.fail(field, `must be one of ${MODES_TEXT}, not ${describeValue(value)}`);
  return value;
}

/** `approval` (the server's default) and `toolApproval` (per MCP tool name); absent when not set. */
function parseApproval(entry: Record<string, unknown>, ctx: EntryContext): ServerApproval {
  const result: ServerApproval = {};
  if (entry.approval !== undefined) result.approval = approvalMode(entry.approval, 'approval', ctx);
  const perTool = entry.toolApproval;
  if (perTool === undefined) return result;
  if (!isPlainObject(perTool)) {
    ctx.fail('toolApproval', `must be an object of tool name → ${MODES_TEXT}, like {"write_file": "ask"}, not ${describeType(perTool)}`);
  }
  const modes: Record<string, ApprovalMode> = {};
  for (const [tool, mode] of Object.entries(perTool)) {
    if (tool === '') ctx.fail('toolApproval', 'has an empty tool name');
    modes[tool] = approvalMode(mode, `toolApproval.${tool}`, ctx);
  }
  result.toolApproval = modes;
  return result;
}

/** `fast` (every tool of the server) and `fastTools` (some, by MCP tool name); absent when not set. */
function parseFastTools(entry: Record<string, unknown>, ctx: EntryContext): ServerFastTools {
  const result: ServerFastTools = {};
  if (entry.fast !== undefined) {
    if (typeof entry.fast !== 'boolean') ctx.fail('fast', `must be true or false, not ${describeValue(entry.fast)}`);
    result.fast = entry.fast;
  }
  const list = entry.fastTools;
  if (list === undefined) return result;
  if (!isArray(list)) ctx.fail('fastTools', `must be an array of tool names, like ["read_file"], not ${describeType(list)}`);
  result.fastTools = list.map((item, i) => {
    if (typeof item !== 'string' || item === '') ctx.fail(`fastTools[${i}]`, `must be a non-empty string (a tool name), not ${describeValue(item)}`);
    return item;
  });
  return result;
}

/** `deferLoading` (the server's tools under tool search) and `alwaysLoaded` (never deferred, by MCP tool name); absent when not set. */
function parseToolLoading(entry: Record<string, unknown>, ctx: EntryContext): ServerToolLoading {
  const result: ServerToolLoading = {};
  if (entry.deferLoading !== undefined) {
    if (typeof entry.deferLoading !== 'boolean') ctx.fail('deferLoading', `must be true or false, not ${describeValue(entry.deferLoading)}`);
    result.deferLoading = entry.deferLoading;
  }
  const list = entry.alwaysLoaded;
  if (list === undefined) return result;
  if (!isArray(list)) ctx.fail('alwaysLoaded', `must be an array of tool names, like ["search_docs"], not ${describeType(list)}`);
  result.alwaysLoaded = list.map((item, i) => {
    if (typeof item !== 'string' || item === '') ctx.fail(`alwaysLoaded[${i}]`, `must be a non-empty string (a tool name), not ${describeValue(item)}`);
    return item;
  });
  return result;
}

/** `elicitation`, `sampling` and `roots` (src/input/server-input-policy.ts); absent when not set. */
function parseInputSettings(entry: Record<string, unknown>, ctx: EntryContext): ServerInputSettings {
  const result: ServerInputSettings = {};
  const oneOf = <T extends string>(field: string, allowed: readonly T[]): T | undefined => {
    const value = entry[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      ctx.fail(field, `must be one of ${allowed.map((m) => `"${m}"`).join(', ')}, not ${describeValue(value)}`);
    }
    return value as T;
  };
  const elicitation = oneOf('elicitation', ELICITATION_POLICIES);
  if (elicitation !== undefined) result.elicitation = elicitation;
  const sampling = oneOf('sampling', SAMPLING_POLICIES);
  if (sampling !== undefined) result.sampling = sampling;
  const roots = entry.roots;
  if (roots === undefined) return result;
  if (!isArray(roots)) ctx.fail('roots', `must be an array of URIs, like ["file:///srv/docs"], not ${describeType(roots)}`);
  result.roots = roots.map((item, i) => {
    if (typeof item !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(item)) ctx.fail(`roots[${i}]`, `must be a URI such as file:///srv/docs, not ${describeValue(item)}`);
    return item;
  });
  return result;
}

/** `protocolVersion`: one MCP revision the host speaks, pinned for this server (src/mcp/transport/protocol-versions.ts). */
function parseProtocolVersion(value: unknown, ctx: EntryContext): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !SPOKEN_PROTOCOL_VERSIONS.includes(value)) {
    ctx.fail('protocolVersion', `must be one of ${SPOKEN_PROTOCOL_VERSIONS.map((v) => `"${v}"`).join(', ')} (the MCP revisions this host speaks), not ${describeValue(value)}`);
  }
  return value;
}

function parseTimeout(value: unknown, ctx: EntryContext): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > MAX_TIMEOUT_MS) {
    ctx.fail('timeoutMs', `must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not ${describeValue(value)}`);
  }
  return value;
}

function requireString(value: unknown, field: string, ctx: EntryContext): string {
  if (typeof value !== 'string') ctx.fail(field, `must be a string, not ${describeType(value)}`);
  return value;
}

function parseStringArray(value: unknown, field: string, ctx: EntryContext): string[] {
  if (value === undefined) return [];
  if (!isArray(value)) ctx.fail(field, `must be an array of strings, not ${describeType(value)}`);
  return value.map((item, i) => {
    const itemField = `${field}[${i}]`;
    // Numbers are refused rather than converted: "args": [8080] is ambiguous about formatting.
    if (typeof item !== 'string') ctx.fail(itemField, `must be a string, not ${describeType(item)}`);
    return expandString(item, itemField, ctx);
  });
}

/** Parses `env` or `headers`. Values are secrets, so messages describe only their type. */
function parseStringMap(value: unknown, field: string, ctx: EntryContext): Record<string, string> {
  const result: Record<string, string> = {};
  if (value === undefined) return result;
  if (!isPlainObject(value)) ctx.fail(field, `must be an object of string values, not ${describeType(value)}`);
  for (const [key, item] of Object.entries(value)) {
    const itemField = `${field}.${key}`;
    if (key === '') ctx.fail(field, 'has an empty key');
    if (typeof item !== 'string') ctx.fail(itemField, `must be a string, not ${describeType(item)}`);
    result[key] = expandString(item, itemField, ctx);
  }
  return result;
}

/** `${VAR}` expansion of one field, failing with the field named. */
function expandString(value: string, field: string, ctx: EntryContext): string {
  return expandVariables(value, ctx.options.env, (detail) => ctx.fail(field, detail));
}

/** A relative command with a slash (`./server.js`, `bin/srv`) is a path next to the config file. */
function resolveCommand(command: string, baseDir: string): string {
  if (isAbsolute(command)) return command;
  if (command.includes('/') || command.includes('\\')) return resolve(baseDir, command);
  return command;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
