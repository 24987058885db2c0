import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';

import { McpConfigError } from './config-error';

/**
 * Which of a server's tools are offered to Claude. Entries are MCP tool names exactly as
 * the server lists them. `allow` (when present) keeps only the named tools; `deny` then
 * removes the named ones.
 */
export interface ToolFilter {
  allow?: string[];
  deny?: string[];
}

/**
 * One MCP server the host connects to, normalised from any of the supported file formats.
 *
 * Secrets: the values of `env` and `headers` (and often `url` query strings) are
 * credentials. They must stay in the worker process: never put them in workflow inputs,
 * activity results, logs or error messages, all of which end up in Temporal history.
 *
 * - `stdio`: `env` holds only the variables the file sets; the connection layer adds
 *   the usual inherited ones (PATH, HOME, ...). `command` is absolute when the file gave
 *   a relative path with a slash, and otherwise as written (looked up on PATH).
 * - `http`: Streamable HTTP; the connection layer falls back to legacy SSE.
 * - `sse`: legacy HTTP+SSE only, because the file said `"type": "sse"`.
 */
export type McpServerConfig =
  | {
      name: string;
      transport: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string;
      tools: ToolFilter;
      timeoutMs?: number;
    }
  | {
      name: string;
      transport: 'http' | 'sse';
      url: string;
      headers: Record<string, string>;
      tools: ToolFilter;
      timeoutMs?: number;
    };

/** Options for {@link parseMcpConfig}. */
export interface ParseMcpConfigOptions {
  /** Variables for `${VAR}` expansion (normally `process.env`). */
  env: Record<string, string | undefined>;
  /** The file the JSON came from, used only to prefix error messages. */
  source: string;
  /** Directory that relative `cwd` and `./command` paths are resolved against. */
  baseDir: string;
}

const SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Keys a server entry may have, across Claude Desktop, Claude Code, Cursor and VS Code. */
const KNOWN_KEYS: ReadonlySet<string> = new Set([
  'type',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'description',
  'disabled',
  'tools',
  'timeoutMs',
  'envFile',
]);
const STDIO_ONLY_KEYS = ['args', 'env', 'cwd'] as const;
const TYPES = ['stdio', 'http', 'sse', 'streamable-http'] as const;
type DeclaredType = (typeof TYPES)[number];

/** setTimeout fires at once for delays above 2^31-1 ms, so a larger timeout would mean "no wait". */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Reads the MCP server list out of an already-parsed configuration file.
 *
 * Accepts `{"mcpServers": {...}}` (Claude Desktop, Claude Code `.mcp.json`, Cursor) and
 * `{"servers": {...}}` (VS Code; its `inputs` key is ignored). Each entry is either
 * `{command, args?, env?, cwd?}` (stdio) or `{url, headers?}` (HTTP), with an optional
 * `type` of `stdio`, `http`, `streamable-http` or `sse`, plus the host's extensions
 * `tools: {allow?, deny?}`, `timeoutMs` and `disabled: true` (entry skipped).
 *
 * `${VAR}` and `${VAR:-default}` (default used when VAR is unset or empty) are expanded
 * in command, args, env values, cwd, url and header values; `${env:VAR}` is accepted as
 * VS Code spells it. `$VAR` without braces and `$$` are left as written. An unset
 * variable without a default is an error, as is VS Code's `${input:...}`.
 *
 * Secrets: `env` and `headers` values are credentials and must stay in the worker
 * process (see {@link McpServerConfig}); error messages never include them.
 *
 * @throws McpConfigError naming the source, server and field of the first problem.
 */
export function parseMcpConfig(json: unknown, options: ParseMcpConfigOptions): McpServerConfig[] {
  const { source } = options;
  if (!isPlainObject(json)) {
    throw new McpConfigError(
      `the configuration must be a JSON object with "mcpServers" or "servers", not ${describeType(json)}`,
      { source },
    );
  }
  const hasMcpServers = json.mcpServers !== undefined;
  const hasServers = json.servers !== undefined;
  if (hasMcpServers && hasServers) {
    throw new McpConfigError('has both "mcpServers" and "servers"; use one of them', { source });
  }
  if (!hasMcpServers && !hasServers) {
    throw new McpConfigError(
      'has neither "mcpServers" (Claude Desktop, Claude Code, Cursor) nor "servers" (VS Code)',
      { source },
    );
  }
  const key = hasMcpServers ? 'mcpServers' : 'servers';
  const servers = json[key];
  if (!isPlainObject(servers)) {
    throw new McpConfigError(`"${key}" must be an object of servers by name, not ${describeType(servers)}`, {
      source,
    });
  }

  const result: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const server = parseServer(name, entry, options);
    if (server !== undefined) result.push(server);
  }
  return result;
}

/**
 * Reads and parses an MCP configuration file. This is the only function in the module
 * that does I/O. Comments and trailing commas are tolerated because VS Code's mcp.json
 * is JSONC. Relative paths in the file resolve against the file's directory.
 *
 * @param path The file to read.
 * @param env Variables for `${VAR}` expansion; defaults to `process.env`.
 * @throws McpConfigError naming the file when it cannot be read, is not valid JSON or
 *   fails {@link parseMcpConfig}'s validation.
 */
export async function loadMcpConfig(
  path: string,
  env: Record<string, string | undefined> = process.env,
): Promise<McpServerConfig[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new McpConfigError(`cannot read the file: ${errorMessage(err)}`, { source: path, cause: err });
  }
  const json = parseJsonc(text, path);
  return parseMcpConfig(json, { env, source: path, baseDir: dirname(resolve(path)) });
}

/** Validation context for one server entry; `fail` throws with the location filled in. */
interface EntryContext {
  readonly options: ParseMcpConfigOptions;
  readonly server: string;
  fail(field: string | undefined, detail: string): never;
}

function parseServer(name: string, entry: unknown, options: ParseMcpConfigOptions): McpServerConfig | undefined {
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
  const extras = timeoutMs === undefined ? { tools } : { tools, timeoutMs };

  if (hasCommand) {
    if (entry.headers !== undefined) ctx.fail('headers', 'applies only to HTTP servers (with "url")');
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
  return { name, transport: declared === 'sse' ? 'sse' : 'http', url, headers, ...extras };
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

/**
 * Expands `${VAR}`, `${VAR:-default}` and `${env:VAR}`. `$$` and `$NAME` stay as written.
 * Defaults are literal text (no nested references) up to the first `}`.
 */
function expandString(value: string, field: string, ctx: EntryContext): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    const dollar = value.indexOf('$', i);
    if (dollar === -1) {
      out += value.slice(i);
      break;
    }
    out += value.slice(i, dollar);
    const next = value[dollar + 1];
    if (next === '$') {
      out += '$$';
      i = dollar + 2;
      continue;
    }
    if (next !== '{') {
      out += '$';
      i = dollar + 1;
      continue;
    }
    const close = value.indexOf('}', dollar + 2);
    if (close === -1) {
      ctx.fail(field, 'has an unterminated "${" (write "${VAR}" or "${VAR:-default}")');
    }
    out += resolveReference(value.slice(dollar + 2, close), field, ctx);
    i = close + 1;
  }
  return out;
}

function resolveReference(body: string, field: string, ctx: EntryContext): string {
  if (body.startsWith('input:')) {
    ctx.fail(
      field,
      `uses "\${${body}}": VS Code input variables are not supported; set an environment variable and write "\${NAME}"`,
    );
  }
  const separator = body.indexOf(':-');
  let name = separator === -1 ? body : body.slice(0, separator);
  const fallback = separator === -1 ? undefined : body.slice(separator + 2);
  if (name.startsWith('env:')) name = name.slice('env:'.length);
  if (!VARIABLE_NAME.test(name)) {
    ctx.fail(
      field,
      `has an unsupported reference "\${${body}}" (supported: "\${VAR}", "\${VAR:-default}", "\${env:VAR}")`,
    );
  }
  const value = ctx.options.env[name];
  if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
  if (value === undefined) {
    ctx.fail(field, `uses environment variable "${name}", which is not set (write "\${${name}:-default}" to give a default)`);
  }
  return value;
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

/** Parses JSON that may contain comments and trailing commas, with secret-free errors. */
function parseJsonc(text: string, source: string): unknown {
  const stripped = stripJsoncSyntax(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  try {
    return JSON.parse(stripped);
  } catch (err) {
    // V8 quotes a snippet of the input in its message; the file may hold API keys.
    let detail = errorMessage(err).replace(/, ".*" is not valid JSON$/s, '');
    const position = /at position (\d+)/.exec(detail);
    if (position?.[1] !== undefined) {
      const offset = Number(position[1]);
      const before = stripped.slice(0, offset);
      const line = before.split('\n').length;
      const column = offset - before.lastIndexOf('\n');
      detail = `${detail.replace(/\s*(?:in JSON )?at position \d+/, '')} at line ${line}, column ${column}`;
    }
    throw new McpConfigError(`is not valid JSON: ${detail}`, { source, cause: err });
  }
}

/**
 * Blanks out `//` and `/* *\/` comments and trailing commas, keeping every other character
 * (and every newline) in place so that JSON.parse positions still match the file.
 */
function stripJsoncSyntax(text: string): string {
  const out = text.split('');
  let i = 0;
  let pendingComma = -1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      pendingComma = -1;
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') out[i++] = ' ';
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (; i < stop; i++) if (text[i] !== '\n') out[i] = ' ';
      continue;
    }
    if (ch === ',') {
      pendingComma = i;
    } else if (ch === '}' || ch === ']') {
      if (pendingComma !== -1) out[pendingComma] = ' ';
      pendingComma = -1;
    } else if (ch !== undefined && !/\s/.test(ch)) {
      pendingComma = -1;
    }
    i++;
  }
  return out.join('');
}

/** Array.isArray, but narrowing to unknown elements instead of any. */
function isArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return typeof value;
  }
}

/** For non-secret fields only: shows short scalars, otherwise the type. */
function describeValue(value: unknown): string {
  if (typeof value === 'string' && value.length <= 80) return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return describeType(value);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
