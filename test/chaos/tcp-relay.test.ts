/**
 * The fault suite's TCP relay (chaos/support/tcp-relay.ts), against a real echo server on
 * loopback: it relays, a cut drops the open connection and refuses new ones, and a restore relays
 * again on the same address.
 */
import * as net from 'node:net';
import { startTcpRelay, type TcpRelay } from '../../chaos/support/tcp-relay';

/** Connects to `address`, sends `text`, and resolves with the echo; rejects on a refused connection. */
function echoThrough(address: string, text: string): Promise<string> {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), host, () => socket.write(text));
    socket.once('error', reject);
    socket.once('data', (data) => {
      resolve(data.toString());
      socket.destroy();
    });
  });
}

describe('startTcpRelay', () => {
  let echo: net.Server;
  let relay: TcpRelay | undefined;

  beforeAll(async () => {
    echo = net.createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await relay?.close();
    await new Promise((resolve) => echo.close(resolve));
  });

  it('relays, drops and refuses while cut, and relays again once restored', async () => {
    const { port } = echo.address() as net.AddressInfo;
    relay = await startTcpRelay(`127.0.0.1:${port}`);
    expect(await echoThrough(relay.address, 'one')).toBe('one');

    const [host, relayPort] = relay.address.split(':');
    const open = net.connect(Number(relayPort), host);
    await new Promise((resolve) => open.once('connect', resolve));
    const closed = new Promise((resolve) => open.once('close', resolve));
    open.on('error', () => undefined);

    await relay.cut();
    await closed;
    await expect(echoThrough(relay.address, 'two')).rejects.toThrow(/ECONNREFUSED/);

    await relay.restore();
    expect(await echoThrough(relay.address, 'three')).toBe('three');
    expect(relay.accepted()).toBe(3);
  });
});
