/**
 * SEP-2243, custom headers from tool parameters (MCP 2026-07-28, Streamable HTTP): a tool's input
 * schema may mark a property with `"x-mcp-header": "<Name>"`, and a client then mirrors that
 * argument into an `Mcp-Param-<Name>` HTTP header of the `tools/call` request, so that proxies can
 * route on it without reading the body. A server that sees the argument without its header answers
 * 400 with JSON-RPC -32020 (HeaderMismatch). A tool whose marks break the rules must be left out of
 * the catalogue by a Streamable HTTP client.
 *
 * The rules (spec: basic/transports/streamable-http, "Custom Headers from Tool Parameters"):
 * - the name is a non-empty RFC 9110 token (no spaces, delimiters or control characters), unique
 *   among the tool's marks regardless of case;
 * - only on `string`, `integer` or `boolean` properties (`number` is not allowed);
 * - only on properties reached from the schema's root through `properties` alone: a mark under
 *   `items`, `additionalProperties`, `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`, `$defs`
 *   and the like (or on the root itself) makes the tool invalid;
 * - a value is sent as its string form (integers in decimal, booleans `true`/`false`), or as
 *   `=?base64?<UTF-8 in base64>?=` when it is not plain visible ASCII, has surrounding spaces, or
 *   looks like that form itself; a value that is null, absent or not a primitive sends no header.
 *
 * The SDK v2 implements this inside its `callTool`/`listTools`, which the host does not use (their
 * strict result parsing would reject results the host takes block by block); its helpers are not
 * exported, hence this module.
 */

/** One marked property: where it is in the arguments, the header's name part, its declared type. */
export interface HeaderParam {
  path: readonly string[];
  name: string;
  type: 'string' | 'integer' | 'boolean';
}

/** The marks of a tool's input schema, or the first rule they break. */
export type HeaderParamsScan = { ok: true; params: HeaderParam[] } | { ok: false; problem: string };

/** The prefix of every mirrored parameter's header. */
export const MCP_PARAM_HEADER_PREFIX = 'Mcp-Param-';

const MARK = 'x-mcp-header';
/** RFC 9110 `token`: one or more `tchar`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);
/** Keywords whose value is one subschema or an array of them, none of them reached by `properties`. */
const SUBSCHEMA_KEYWORDS = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'propertyNames',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
] as const;
/** Keywords whose value maps names to subschemas, likewise unreached. */
const SUBSCHEMA_MAP_KEYWORDS = ['$defs', 'definitions', 'patternProperties', 'dependentSchemas'] as const;

const BASE64_START = '=?base64?';
const BASE64_END = '?=';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function where(path: readonly string[]): string {
  return path.length === 0 ? 'the schema root' : `property ${path.join('.')}`;
}

/** The subschemas of `schema` that `properties` does not reach. */
function unreachedSubschemas(schema: Record<string, unknown>): unknown[] {
  const found: unknown[] = [];
  for (const keyword of SUBSCHEMA_KEYWORDS) {
    const value = schema[keyword];
    if (Array.isArray(value)) found.push(...(value as unknown[]));
    else if (value !== undefined) found.push(value);
  }
  for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
    const value = schema[keyword];
    if (isRecord(value)) found.push(...Object.values(value));
  }
  return found;
}

/**
 * The header parameters `inputSchema` marks, or the first rule broken (see the module comment).
 * Never throws, whatever the schema.
 */
export function scanHeaderParams(inputSchema: unknown): HeaderParamsScan {
  const params: HeaderParam[] = [];
  const lowerNames = new Set<string>();
  // Returns the problem found under `node`, if any.
  const visit = (node: unknown, path: readonly string[], reached: boolean): string | undefined => {
    if (!isRecord(node)) return undefined;
    if (MARK in node) {
      if (!reached || path.length === 0) {
        return `${where(path)}: x-mcp-header is allowed only on a property reached from the root through "properties" alone`;
      }
      const name = node[MARK];
      if (typeof name !== 'string' || name === '') return `${where(path)}: x-mcp-header must be a non-empty string`;
      if (!TOKEN.test(name)) return `${where(path)}: x-mcp-header ${JSON.stringify(name)} is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~ only)`;
      const type = node.type;
      if (typeof type !== 'string' || !HEADER_TYPES.has(type)) {
        return `${where(path)}: x-mcp-header is allowed only on a string, integer or boolean property, not ${JSON.stringify(type ?? null)}`;
      }
      if (lowerNames.has(name.toLowerCase())) return `x-mcp-header ${JSON.stringify(name)} is used twice (names are compared regardless of case)`;
      lowerNames.add(name.toLowerCase());
      params.push({ path, name, type: type as HeaderParam['type'] });
    }
    if (isRecord(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const problem = visit(child, [...path, key], reached);
        if (problem !== undefined) return problem;
      }
    }
    for (const child of unreachedSubschemas(node)) {
      const problem = visit(child, path, false);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
  const problem = visit(inputSchema, [], true);
  return problem === undefined ? { ok: true, params } : { ok: false, problem };
}

/** A header value for `text`: as it is when plain visible ASCII, else in the base64 form. */
export function encodeHeaderValue(text: string): string {
  const plain =
    text !== '' &&
    text.trim() === text &&
    /^[\x20-\x7e]*$/.test(text) &&
    !(text.startsWith(BASE64_START) && text.endsWith(BASE64_END));
  return plain ? text : `${BASE64_START}${Buffer.from(text, 'utf8').toString('base64')}${BASE64_END}`;
}

/** The string form of an argument value, or undefined when it sends no header. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value);
  return undefined;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isRecord(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** The `Mcp-Param-*` headers of a call with `args` to a tool marking `params`. */
export function mcpParamHeaders(params: readonly HeaderParam[], args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const text = headerText(valueAt(args, param.path));
    if (text !== undefined) headers[`${MCP_PARAM_HEADER_PREFIX}${param.name}`] = encodeHeaderValue(text);
  }
  return headers;
}
