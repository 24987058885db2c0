import type { McpServerConfig } from './mcp-server-config';

/** An `Authorization`-style value's credential after its scheme (`Bearer <token>`), which errors may quote alone. */
const SCHEME_VALUE = /^(?:bearer|basic|token|digest)\s+(\S.*)$/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function headerSecrets(value: string): string[] {
  const credential = SCHEME_VALUE.exec(value.trim())?.[1];
  return credential !== undefined ? [value, credential] : [value];
}

function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  // A URL's user (often a token itself) and password, as written and decoded, and every query value:
  // keys travel in queries under any name (`?k=`, `?auth=`…).
  return [parsed.username, parsed.password, decoded(parsed.username), decoded(parsed.password), ...parsed.searchParams.values()];
}

/**
 * The values of a server's config that are secrets: every `env` value of a stdio server; every
 * header value of an HTTP one (and the credential after its scheme), the user and password of its
 * URL and its query values, its OAuth client secret, private key and workload assertion. Error text leaving the worker is redacted of them (`redactSecrets`).
 */
export function serverSecrets(server: McpServerConfig): string[] {
  const values =
    server.transport === 'stdio'
      ? Object.values(server.env)
      : [...Object.values(server.headers).flatMap(headerSecrets), ...urlSecrets(server.url), ...(server.oauth ? [server.oauth.clientSecret ?? '', server.oauth.privateKey ?? '', server.oauth.assertion ?? ''] : [])];
  return [...new Set(values.filter((value) => value !== ''))];
}
