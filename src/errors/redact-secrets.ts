/**
 * Secrets out of error text, before it leaves the worker: a failure's message goes into the
 * workflow history (and the Web UI), and the host's `is_error` results built from it go to Claude.
 * Transport and server errors quote what they were given (a URL with its credentials and query, a
 * header, a value from a server's environment), so their text is redacted in two ways:
 *
 * - the secret values the worker knows (the API key, each MCP server's `env` and `headers`
 *   values, the credentials and query values of its URL), wherever they appear, exactly; values
 *   shorter than {@link MIN_SECRET_LENGTH} are left alone, as they would mangle ordinary words;
 * - by pattern, what is a secret by its place: the user and password of a URL, URL query
 *   parameters whose name says key, token, secret, password, auth, signature, credential or session,
 *   the value of an `Authorization` or API-key header, a `Bearer` token, an Anthropic API key.
 *
 * Pure: no I/O, no state.
 */

/** What a secret becomes. */
export const REDACTED = '[redacted]';

/** Known values shorter than this are not redacted: too likely to be part of ordinary text. */
export const MIN_SECRET_LENGTH = 6;

/** `scheme://user:password@` (or `scheme://token@`): the user information of a URL. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
/** One query (or fragment) parameter of a URL: `?name=value`, `&name=value`, `#name=value`. */
const URL_PARAMETER = /([?&#])([^=&#\s"'<>]+)=([^&#\s"'<>]*)/g;
/** Parameter names that carry credentials: `api_key`, `access_token`, `X-Amz-Signature`, `password`… */
const SENSITIVE_NAME = /key|token|secret|passw|pwd|auth|sig|credential|session/i;
/**
 * The value of an `Authorization` header (after its scheme, when it names one) or an API-key header,
 * as `name: value` or JSON's `"name":"value"` (a `name=value` is a URL parameter, above).
 */
const CREDENTIAL_HEADER =
  /\b((?:proxy-)?authorization|x-api-key|api[-_]?key|x-auth-token|x-access-token)(["']?\s*:\s*["']?)(?:(bearer|basic|token|digest)\s+)?(?!\[redacted\]|(?:bearer|basic|token|digest)\s)[^\s"',;&)\]}<>]+/gi;
/** A bearer token wherever it stands (HTTP libraries quote `Bearer <token>` in their errors). */
const BEARER_TOKEN = /\b(Bearer\s+)([A-Za-z0-9\-._~+/]+=*)/g;
/** An Anthropic API key. */
const ANTHROPIC_KEY = /\bsk-ant-[A-Za-z0-9_-]{6,}/g;

/** The forms a known value may take in text: as it is, and URL-encoded (as a path or a query would have it). */
function formsOf(secret: string): string[] {
  const forms = [secret];
  try {
    forms.push(encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice('v='.length));
  } catch {
    // A lone surrogate cannot be encoded; the value itself is still matched.
  }
  return forms;
}

function redactKnown(text: string, secrets: readonly string[]): string {
  // Longest first, so a secret that contains another is replaced whole.
  const forms = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH).flatMap(formsOf))].sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of forms) out = out.split(form).join(REDACTED);
  return out;
}

function redactPatterns(text: string): string {
  return text
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(URL_PARAMETER, (whole, lead: string, name: string, value: string) =>
      SENSITIVE_NAME.test(name) && value !== '' && value !== REDACTED ? `${lead}${name}=${REDACTED}` : whole,
    )
    .replace(CREDENTIAL_HEADER, (_whole, name: string, separator: string, scheme: string | undefined) =>
      `${name}${separator}${scheme !== undefined ? `${scheme} ` : ''}${REDACTED}`,
    )
    // A plain word after "Bearer" ("Bearer authentication") is prose, not a token.
    .replace(BEARER_TOKEN, (whole, lead: string, token: string) => (/^[a-z]+$/.test(token) ? whole : `${lead}${REDACTED}`))
    .replace(ANTHROPIC_KEY, REDACTED);
}

/**
 * `text` with the known `secrets` and every secret-looking part (see the module comment) replaced
 * by {@link REDACTED}.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  return redactPatterns(redactKnown(text, secrets));
}
