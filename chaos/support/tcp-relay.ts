/**
 * A TCP relay of the suite's own (node:net) between one worker and the Temporal frontend, so one
 * worker can be cut off from the server while everything else keeps its connections: `cut` drops
 * every relayed connection and closes the listening socket (new connections are refused), `restore`
 * listens again on the same port and relays as before.
 */
import * as net from 'node:net';
import { freePort } from '../../src/temporal/free-port';

/** A relay from a loopback port to `target`. */
export interface TcpRelay {
  /** What the worker uses as TEMPORAL_ADDRESS. */
  address: string;
  /** Connections accepted so far (a reconnecting worker makes new ones). */
  accepted(): number;
  /** Drops every connection and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts and relays again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

function listen(server: net.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Starts relaying from a free 127.0.0.1 port to `target` (`host:port`). */
export async function startTcpRelay(target: string): Promise<TcpRelay> {
  const [host = '127.0.0.1', portText = ''] = target.split(/:(?=\d+$)/);
  const targetPort = Number(portText);
  if (!Number.isInteger(targetPort)) throw new Error(`relay target ${target}: host:port expected`);
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((inbound) => {
    accepted += 1;
    const outbound = net.connect(targetPort, host);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      // A reset or a refused connection on one side ends the pair; the worker sees a dropped connection.
      socket.on('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
      socket.once('close', () => {
        sockets.delete(socket);
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  const port = await freePort();
  await listen(server, port);
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) {
        resolve();
        return;
      }
      server.close(() => resolve());
    });
  return {
    address: `127.0.0.1:${port}`,
    accepted: () => accepted,
    cut: close,
    restore: () => listen(server, port),
    close,
  };
}
