import { spawn } from 'node:child_process';

/** How a command ended and what it printed. */
export interface CommandResult {
  /** The exit code; null when it was killed (timeout) or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why it could not start or was stopped, when that happened. */
  error?: string;
}

/**
 * Runs a command to completion with its output captured (the installer prints one line per attempt,
 * not the tools' chatter), killed after `timeoutMs` so a hung download cannot hang `npm run setup`.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let error: string | undefined;
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      error = `timed out after ${options.timeoutMs / 1000} s`;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr, error: err.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ...(error !== undefined ? { error } : {}) });
    });
  });
}

/**
 * An error message cut to one short clause: URLs in parentheses dropped, repeated `a: a:` segments
 * merged, and a long chain of causes reduced to its head and its root cause, because the installer
 * prints one line per attempt and Rust/Go error chains repeat themselves.
 */
export function shortReason(message: string, maxLength = 120): string {
  const segments: string[] = [];
  for (const raw of (message.split('\n')[0] ?? '').replace(/\s*\(https?:\/\/[^)]*\)/g, '').split(': ')) {
    const segment = raw.trim();
    if (segment !== '' && segment !== segments.at(-1)) segments.push(segment);
  }
  const whole = segments.join(': ');
  if (whole.length <= maxLength || segments.length <= 3) return whole;
  return `${segments[0] ?? ''} … ${segments.slice(-2).join(': ')}`;
}

/** The line of a failed command's output most likely to say why: pip's `ERROR:` line, else the last one. */
export function failureLine(result: CommandResult): string {
  if (result.error !== undefined) return result.error;
  const lines = `${result.stderr}\n${result.stdout}`.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return shortReason(lines.find((l) => l.startsWith('ERROR:')) ?? lines.at(-1) ?? `exit code ${String(result.code)}`);
}
