import * as fs from 'node:fs';
import * as net from 'node:net';
import { freePort } from '../../src/temporal/free-port';

/** The states of the IPv4 TCP sockets whose local port is `port` (/proc/net/tcp: 06 is TIME_WAIT). */
function localSocketStates(port: number): string[] {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[1]?.endsWith(`:${hex}`))
    .map((fields) => fields[3] ?? '');
}

describe('freePort', () => {
  test('the port is held in TIME_WAIT, so bind(:0) elsewhere does not hand it out, and can be listened on', async () => {
    const port = await freePort();
    expect(localSocketStates(port)).toContain('06');
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise((resolve) => server.close(resolve));
  });

  test('ports asked for at once are distinct', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(20);
  });
});
