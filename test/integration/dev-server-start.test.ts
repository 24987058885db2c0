/**
 * How `startDevServer` fails: the server's own words are in the error, and a start that lost a race
 * for one of the server's randomly chosen internal ports is tried again (the CI failure of
 * dev-server-codec-endpoint.test.ts on 2026-12-03: "exited with code 2", nothing else). A stand-in
 * CLI script fails the first start(s) the way the real one does and then hands over to the real CLI.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DevServerExitedError, startDevServer } from '../../src/temporal/dev-server';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';
import { freePort } from '../../src/temporal/free-port';

const BIND_PANIC = 'panic: listen tcp 127.0.0.1:41234: bind: address already in use';

/** A CLI that prints `stderr` and exits 2 for its first `failures` starts, then runs `realCli`. */
function flakyCli(dir: string, failures: number, stderr: string, realCli: string): { path: string; starts: () => number } {
  const counter = path.join(dir, 'starts');
  fs.writeFileSync(counter, '');
  const script = path.join(dir, 'temporal');
  fs.writeFileSync(
    script,
    [
      '#!/bin/sh',
      `echo x >> '${counter}'`,
      `if [ "$(wc -l < '${counter}')" -le ${failures} ]; then echo '${stderr}' >&2; exit 2; fi`,
      `exec '${realCli}' "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return { path: script, starts: () => fs.readFileSync(counter, 'utf8').split('\n').filter(Boolean).length };
}

describe('starting the dev server', () => {
  const cli = findTemporalCli();
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-dev-start-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const options = async (cliPath: string, log: (line: string) => void) => ({
    cliPath,
    dbFile: path.join(dir, 'temporal.db'),
    port: await freePort(),
    uiPort: await freePort(),
    log,
  });

  test('a start that lost a port race is tried again, and the server answers', async () => {
    if (!cli) throw new Error('no Temporal CLI (npm run setup)');
    const flaky = flakyCli(dir, 1, BIND_PANIC, cli.path);
    const lines: string[] = [];
    const server = await startDevServer(await options(flaky.path, (line) => lines.push(line)));
    try {
      expect(flaky.starts()).toBe(2);
      expect(lines.join('\n')).toContain('lost a race for a free port; starting it again (attempt 2 of 3)');
    } finally {
      await server.stop();
    }
  }, 90_000);

  test('it gives up after three lost races, with the server stderr in the error', async () => {
    const flaky = flakyCli(dir, 3, BIND_PANIC, '/nonexistent');
    const failure = await startDevServer(await options(flaky.path, () => undefined)).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DevServerExitedError);
    expect((failure as DevServerExitedError).message).toBe(`temporal server start-dev exited with code 2:\n${BIND_PANIC}`);
    expect(flaky.starts()).toBe(3);
  });

  test('any other early exit is not tried again', async () => {
    const flaky = flakyCli(dir, 1, 'Error: unable to open database file', '/nonexistent');
    const failure = await startDevServer(await options(flaky.path, () => undefined)).catch((err: unknown) => err);
    expect((failure as Error).message).toBe('temporal server start-dev exited with code 2:\nError: unable to open database file');
    expect(flaky.starts()).toBe(1);
  });
});
