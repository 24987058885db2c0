const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Expands `${VAR}`, `${VAR:-default}` (the default is used when VAR is unset or empty) and
 * `${env:VAR}` (as VS Code spells it). `$$` and `$NAME` stay as written. Defaults are literal
 * text (no nested references) up to the first `}`.
 *
 * @param value The string as the file wrote it.
 * @param env The variables to expand from (normally `process.env`).
 * @param fail Throws with the problem; called for an unset variable without a default, VS Code's
 *   `${input:...}`, an unsupported reference and an unterminated `${`. Messages name variables,
 *   never their values.
 */
export function expandVariables(
  value: string,
  env: Readonly<Record<string, string | undefined>>,
  fail: (detail: string) => never,
): string {
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
      fail('has an unterminated "${" (write "${VAR}" or "${VAR:-default}")');
    }
    out += resolveReference(value.slice(dollar + 2, close), env, fail);
    i = close + 1;
  }
  return out;
}

function resolveReference(
  body: string,
  env: Readonly<Record<string, string | undefined>>,
  fail: (detail: string) => never,
): string {
  if (body.startsWith('input:')) {
    fail(`uses "\${${body}}": VS Code input variables are not supported; set an environment variable and write "\${NAME}"`);
  }
  const separator = body.indexOf(':-');
  let name = separator === -1 ? body : body.slice(0, separator);
  const fallback = separator === -1 ? undefined : body.slice(separator + 2);
  if (name.startsWith('env:')) name = name.slice('env:'.length);
  if (!VARIABLE_NAME.test(name)) {
    fail(`has an unsupported reference "\${${body}}" (supported: "\${VAR}", "\${VAR:-default}", "\${env:VAR}")`);
  }
  const value = env[name];
  if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
  if (value === undefined) {
    fail(`uses environment variable "${name}", which is not set (write "\${${name}:-default}" to give a default)`);
  }
  return value;
}
