/**
 * Ctrl-C during `npm start`, at every moment of start-up: while Node loads, while the dev server
 * starts, once it is up, while the offline stand-in and the worker are being created, once the
 * worker polls. A terminal's Ctrl-C reaches the whole foreground process group, and npm relays it
 * once more, so the group gets SIGINT twice. Closing the terminal instead sends the group SIGHUP,
 * once. Each time the process must exit promptly, and no process it started (dev server, MCP
 * server) may be left, nor the dev server's port open.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';
import { freePort } from '../../src/temporal/free-port';
import { stillAlive, watchProcessTree } from '../fixtures/process-tree';
import { REPO_ROOT } from '../support/repo';

/** When to press Ctrl-C: after a delay, when a line of output appears, or when a child process does. */
type Moment = { afterMs: number } | { onLine: RegExp } | { onProcess: RegExp };

/** Ctrl-C (SIGINT, twice: the terminal's and npm's relay), or a closed terminal (SIGHUP, once). */
type Press = 'Ctrl-C' | 'hang-up';

const MOMENTS: Array<[string, Moment, Press]> = [
  ['Ctrl-C while Node loads', { afterMs: 50 }, 'Ctrl-C'],
  ['Ctrl-C while the dev server starts', { onProcess: /server start-dev/ }, 'Ctrl-C'],
  ['Ctrl-C once the dev server is up', { onLine: /^Temporal: dev server at/ }, 'Ctrl-C'],
  ['Ctrl-C while the stand-in and the worker are created', { onLine: /^Web UI:/ }, 'Ctrl-C'],
  ['Ctrl-C as the stand-in is announced', { onLine: /OFFLINE STAND-IN/ }, 'Ctrl-C'],
  ['Ctrl-C once the worker polls', { onLine: /^Worker: polling/ }, 'Ctrl-C'],
  ['Ctrl-C once the MCP servers are listed', { onLine: /^MCP server weather:/ }, 'Ctrl-C'],
  ['terminal closed (SIGHUP) while the dev server starts', { onProcess: /server start-dev/ }, 'hang-up'],
  ['terminal closed (SIGHUP) once the MCP servers are listed', { onLine: /^MCP server weather:/ }, 'hang-up'],
];

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

describe('Ctrl-C or a closed terminal during npm start', () => {
  const cli = findTemporalCli();

  it.each(MOMENTS)('%s: stops everything it started and exits', async (_name, moment, how) => {
    if (!cli) throw new Error('no Temporal CLI (npm run setup)');
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-start-'));
    const [port, uiPort] = [await freePort(), await freePort()];
    // What `npm start` runs, in its own process group like a terminal's foreground job; the data
    // folder (.temporal/) goes to a temp cwd, not the repository's.
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts/launch.cjs'), 'main'], {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        TEMPORAL_CLI_PATH: cli.path,
        TEMPORAL_DEV_PORT: String(port),
        TEMPORAL_DEV_UI_PORT: String(uiPort),
        MCP_CONFIG: path.join(REPO_ROOT, 'mcp.json'),
      },
    });
    const pid = child.pid ?? -1;
    const tree = watchProcessTree(pid, 10);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let output = '';
    const signal = how === 'Ctrl-C' ? 'SIGINT' : 'SIGHUP';
    const ctrlC = (): void => {
      try {
        process.kill(-pid, signal);
        if (how === 'hang-up') return; // a shell relays a hang-up to its jobs once
        setTimeout(() => {
          try {
            process.kill(-pid, 'SIGINT'); // npm's relay of the same Ctrl-C
          } catch {
            // the group is gone already
          }
        }, 20);
      } catch {
        // the group is gone already
      }
    };
    let pressed = false;
    const press = (): void => {
      if (pressed) return;
      pressed = true;
      ctrlC();
    };
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if ('onLine' in moment && output.split('\n').some((line) => moment.onLine.test(line))) press();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    if ('afterMs' in moment) setTimeout(press, moment.afterMs);
    const processWatch =
      'onProcess' in moment
        ? setInterval(() => {
            if ([...tree.seen.values()].some((p) => moment.onProcess.test(p.command))) press();
          }, 10)
        : undefined;
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, 60_000);
    const exit = await exited;
    clearTimeout(timer);
    clearInterval(processWatch);
    tree.stop();
    // Before Node has run a line of ours, SIGINT's default action ends the process (nothing started
    // yet); from then on it stops what it started and exits 0.
    // The output says where a stop that did not happen got stuck.
    const stopped = exit.code === 0 || exit.signal === signal;
    if (pressed && !stopped) throw new Error(`exit ${String(exit.code)} / ${String(exit.signal)}; output:\n${output}`);
    expect({ pressed, stopped }).toEqual({ pressed: true, stopped: true });
    const left = [...tree.seen.values()];
    expect(await waitFor(() => left.every((p) => !stillAlive(p)), 5000)).toBe(true);
    expect(left.filter(stillAlive)).toEqual([]);
    expect(await portOpen(port)).toBe(false);
    expect(output).not.toMatch(/Cannot close connection|Error:|npm start:/);
  }, 90_000);
});
