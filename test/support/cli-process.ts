/**
 * The compiled `mcp-host` CLI (`bin/mcp-host.js`) as a separate process, with a bare environment
 * plus what the caller passes, for tests and the chaos suite.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from './repo';

/** How a CLI run ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `mcp-host ARGS` of the tree `root` (default this repo) and resolves when it exits. */
export function runCliProcess(args: readonly string[], env: Record<string, string>, root: string = REPO_ROOT): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/mcp-host.js'), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
