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

/** An interactive `mcp-host` (e.g. `chat`) whose output a test waits on, line by line. */
export interface InteractiveCli {
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Types a line (one at a time: a line typed while none is asked for is lost). */
  write(line: string): void;
  /** Resolves once the output shows `what` (a string, or a pattern), within `timeoutMs`; fails the test otherwise. */
  waitFor(what: string | RegExp, timeoutMs?: number): Promise<void>;
  /** The exit code once it has exited. */
  readonly exited: Promise<number | null>;
  kill(): void;
}

/** Starts `mcp-host ARGS` of this repo with a bare environment plus `env`, for a test to talk to. */
export function startInteractiveCli(args: readonly string[], env: Record<string, string>): InteractiveCli {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/mcp-host.js'), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seen = (what: string | RegExp): boolean => (typeof what === 'string' ? output.includes(what) : what.test(output));
  return {
    output: () => output,
    write: (line) => child.stdin.write(`${line}\n`),
    waitFor: async (what, timeoutMs = 30_000) => {
      const until = Date.now() + timeoutMs;
      while (!seen(what) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      if (!seen(what)) throw new Error(`waited ${timeoutMs} ms for ${String(what)}; the output was:\n${output}`);
    },
    exited,
    kill: () => child.kill(),
  };
}
