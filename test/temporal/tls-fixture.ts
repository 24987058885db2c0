/**
 * A TLS front for the run's plain dev server, as a real mTLS deployment looks to a client: a CA, a
 * server certificate for 127.0.0.1/localhost, a client certificate the CA signed, and a second
 * client certificate from a CA the server does not trust — all made with `openssl` — and a Node
 * `tls` server (ALPN h2) that demands a trusted client certificate and pipes the bytes through.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';

/** The certificate files, by role. */
export interface TestCertificates {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** Signed by a CA the server does not know. */
  untrustedCert: string;
  untrustedKey: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Makes the CAs and certificates in a fresh temp folder (EC P-256: fast to generate). */
export function makeCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-tls-'));
  const key = (name: string): void => openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`]);
  const ca = (name: string): void => {
    key(name);
    openssl(dir, ['req', '-x509', '-new', '-key', `${name}.key`, '-sha256', '-days', '2', '-subj', `/CN=${name}`, '-out', `${name}.pem`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  };
  const leaf = (name: string, caName: string, extensions: string): void => {
    key(name);
    openssl(dir, ['req', '-new', '-key', `${name}.key`, '-subj', `/CN=${name}`, '-out', `${name}.csr`]);
    fs.writeFileSync(path.join(dir, `${name}.ext`), extensions);
    openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', `${caName}.pem`, '-CAkey', `${caName}.key`, '-CAcreateserial',
      '-days', '2', '-sha256', '-extfile', `${name}.ext`, '-out', `${name}.pem`]);
  };
  ca('ca');
  ca('other-ca');
  leaf('server', 'ca', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature\n');
  leaf('client', 'ca', 'extendedKeyUsage=clientAuth\nkeyUsage=digitalSignature\n');
  leaf('untrusted', 'other-ca', 'extendedKeyUsage=clientAuth\nkeyUsage=digitalSignature\n');
  const file = (name: string): string => path.join(dir, name);
  return {
    dir,
    caCert: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server.key'),
    clientCert: file('client.pem'),
    clientKey: file('client.key'),
    untrustedCert: file('untrusted.pem'),
    untrustedKey: file('untrusted.key'),
  };
}

/** A running TLS front. */
export interface TlsFront {
  address: string;
  /** Handshakes the front refused, e.g. for a missing or untrusted client certificate. */
  rejected: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 with mTLS required and pipes every accepted connection to `target` (host:port). */
export async function startTlsFront(certs: TestCertificates, target: string): Promise<TlsFront> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const sockets = new Set<net.Socket>();
  const front: TlsFront = { address: '', rejected: 0, close: () => Promise.resolve() };
  const server = tls.createServer(
    {
      cert: fs.readFileSync(certs.serverCert),
      key: fs.readFileSync(certs.serverKey),
      ca: fs.readFileSync(certs.caCert),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (clientSide) => {
      const serverSide = net.connect({ host, port });
      sockets.add(clientSide).add(serverSide);
      const end = (): void => {
        clientSide.destroy();
        serverSide.destroy();
        sockets.delete(clientSide);
        sockets.delete(serverSide);
      };
      clientSide.on('error', end).on('close', end);
      serverSide.on('error', end).on('close', end);
      clientSide.pipe(serverSide).pipe(clientSide);
    },
  );
  server.on('tlsClientError', () => {
    front.rejected += 1;
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const bound = server.address();
  front.address = `127.0.0.1:${typeof bound === 'object' && bound ? bound.port : 0}`;
  front.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return front;
}
