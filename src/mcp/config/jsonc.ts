import { McpConfigError } from './config-error';
import { errorMessage } from './describe-json';

/**
 * Parses JSON that may contain comments and trailing commas (VS Code's mcp.json is JSONC), and a
 * leading BOM. Errors name the line and column but never quote the text: the file may hold API keys.
 *
 * @param text The file's content.
 * @param source The file's name, for the error message.
 * @throws McpConfigError when the text is not valid JSON(C).
 */
export function parseJsonc(text: string, source: string): unknown {
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
