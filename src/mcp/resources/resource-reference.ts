/**
 * The user's words for a resource and a prompt (issue 28): `SERVER:URI` (`--attach`, `@server:uri`
 * in `chat`), `SERVER/NAME` (`--prompt`), `key=value` (`--arg`). A server's name is everything before
 * the first `:` or `/` (mcp.json names rarely hold either; a URI always holds a `:`). Pure.
 */

/** A resource of one server. */
export interface ResourceReference {
  server: string;
  uri: string;
}

/** A prompt of one server, with its arguments. */
export interface PromptReference {
  server: string;
  name: string;
  arguments: Record<string, string>;
}

/** `SERVER:URI` → the reference; a clear error when it is not of that form. */
export function parseResourceReference(text: string): ResourceReference {
  const colon = text.indexOf(':');
  const server = colon > 0 ? text.slice(0, colon) : '';
  const uri = colon > 0 ? text.slice(colon + 1) : '';
  if (server === '' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri)) {
    throw new Error(`"${text}" is not SERVER:URI (a server of mcp.json, a colon, then the resource's URI, e.g. everything:demo://resource/static/document/architecture.md)`);
  }
  return { server, uri };
}

/** `SERVER/NAME` plus `key=value` arguments → the reference; a clear error for a malformed one. */
export function parsePromptReference(text: string, args: readonly string[] = []): PromptReference {
  const slash = text.indexOf('/');
  const server = slash > 0 ? text.slice(0, slash) : '';
  const name = slash > 0 ? text.slice(slash + 1) : '';
  if (server === '' || name === '') throw new Error(`"${text}" is not SERVER/NAME (a server of mcp.json, a slash, then the prompt's name)`);
  const parsed: Record<string, string> = {};
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new Error(`prompt argument "${arg}" is not KEY=VALUE`);
    const key = arg.slice(0, eq);
    if (Object.hasOwn(parsed, key)) throw new Error(`prompt argument "${key}" is given twice`);
    parsed[key] = arg.slice(eq + 1);
  }
  return { server, name, arguments: parsed };
}
