import * as net from 'node:net';

const HOST = '127.0.0.1';

/**
 * Asks the OS for a free TCP port on 127.0.0.1 (for the dev server's ports and test servers), and
 * keeps the OS from handing it out again before its caller binds it.
 *
 * A port that is merely listened on and closed goes back into the pool at once: on Linux the
 * ephemeral ports are random, and the next `bind(:0)` anywhere on the machine (the dev server picks
 * its internal services' ports that way, and so does every test server) may get it before the dev
 * server binds it. So, as the Temporal CLI's own `GetFreePort` does, the port is connected to and
 * that connection closed from the listening side first: its end stays in TIME_WAIT (a minute on
 * Linux), during which `bind(:0)` does not give the port out, while an explicit bind to it still
 * succeeds (servers set SO_REUSEADDR: Node's and Go's do by default).
 */
export async function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      let finished = false;
      const done = (): void => {
        if (finished) return;
        finished = true;
        server.close(() => resolve(port));
      };
      server.once('connection', (accepted) => {
        // The listening side closes first: that end of the connection is the one in TIME_WAIT.
        accepted.end();
      });
      const client = net.connect({ host: HOST, port });
      client.on('error', done); // the reservation is a courtesy: the port is free either way
      client.on('end', () => client.end());
      client.on('close', done);
    });
  });
}
