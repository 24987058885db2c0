/**
 * Repeats a failed connection's first steps with Node's `net` and `tls` to learn why it failed.
 * grpc-js reports every failure to connect — refused, untrusted certificate, a server that wants a
 * client certificate — as "Failed to connect before the deadline"; the TCP connect and the TLS
 * handshake, done again with the same settings, say which one it was.
 */
import type { TLSConfig } from '@temporalio/client';
import * as net from 'node:net';
import * as tls from 'node:tls';

/** What the probe saw: the step that failed and Node's error code (or a symptom). */
export type ProbeFinding =
  | { step: 'tcp'; code: string }
  | { step: 'tls'; code: string; clientCert: boolean }
  /** A TLS handshake succeeded; `serverSpeaksTls` for a plaintext config means the server wanted TLS. */
  | { step: 'ok'; serverSpeaksTls: boolean };

/** `host` and `port` of a `host:port` or `[v6]:port` address. */
export function splitAddress(address: string): { host: string; port: number } {
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(address) ?? /^([^:]+):(\d+)$/.exec(address);
  if (!match) return { host: address, port: 7233 };
  return { host: match[1] ?? address, port: Number(match[2]) };
}

const errorCode = (err: unknown): string => {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return err instanceof Error ? err.message : String(err);
};

function tcpConnect(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (code: string | undefined): void => {
      socket.destroy();
      resolve(code);
    };
    socket.setTimeout(timeoutMs, () => done('ETIMEDOUT'));
    socket.once('connect', () => done(undefined));
    socket.once('error', (err) => done(errorCode(err)));
  });
}

/** The HTTP/2 client preface and an empty SETTINGS frame: a gRPC server answers with its own SETTINGS. */
const H2_PREFACE = Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])]);

/**
 * A TLS handshake like the SDK's (ALPN h2, the same CA, client certificate and server name), then
 * the HTTP/2 preface, waiting for the server's first bytes: with TLS 1.3 a server that refuses the
 * client's certificate says so only after the handshake, in an alert that arrives on the first read.
 */
function tlsHandshake(host: string, port: number, settings: TLSConfig, verify: boolean, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const servername = settings.serverNameOverride ?? (net.isIP(host) ? undefined : host);
    const socket = tls.connect({
      host,
      port,
      ALPNProtocols: ['h2'],
      rejectUnauthorized: verify,
      ...(servername !== undefined ? { servername } : {}),
      ...(settings.serverNameOverride !== undefined
        ? { checkServerIdentity: (_host: string, cert: tls.PeerCertificate) => tls.checkServerIdentity(settings.serverNameOverride ?? _host, cert) }
        : {}),
      ...(settings.serverRootCACertificate ? { ca: Buffer.from(settings.serverRootCACertificate) } : {}),
      ...(settings.clientCertPair ? { cert: Buffer.from(settings.clientCertPair.crt), key: Buffer.from(settings.clientCertPair.key) } : {}),
    });
    let settled = false;
    let secured = false;
    const done = (code: string | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(code);
    };
    // Handshake done but no answer to the preface: TLS is not the problem; anything else is beyond this probe.
    const timer = setTimeout(() => done(secured ? undefined : 'ETIMEDOUT'), timeoutMs);
    socket.once('secureConnect', () => {
      secured = true;
      socket.write(H2_PREFACE);
      socket.once('data', () => done(undefined));
    });
    // A close without an alert right after the handshake: the server dropped us, most likely over our certificate.
    socket.once('close', () => done(secured ? 'CLOSED_AFTER_HANDSHAKE' : 'ECONNRESET'));
    socket.once('error', (err) => done(errorCode(err)));
  });
}

/** Probes `address` with the TLS settings a connection used (undefined: plaintext). Takes at most a few seconds. */
export async function probeEndpoint(address: string, settings: TLSConfig | undefined, timeoutMs = 3000): Promise<ProbeFinding> {
  const { host, port } = splitAddress(address);
  const tcp = await tcpConnect(host, port, timeoutMs);
  if (tcp !== undefined) return { step: 'tcp', code: tcp };
  if (settings) {
    const code = await tlsHandshake(host, port, settings, true, timeoutMs);
    return code === undefined ? { step: 'ok', serverSpeaksTls: true } : { step: 'tls', code, clientCert: settings.clientCertPair !== undefined };
  }
  // Plaintext failed where TCP works: does the server expect TLS? (No verification: only "does it answer TLS".)
  const code = await tlsHandshake(host, port, {}, false, timeoutMs);
  const spokeTls = code === undefined || /ALERT|CERTIFICATE|CLOSED_AFTER_HANDSHAKE/.test(code);
  return { step: 'ok', serverSpeaksTls: spokeTls };
}
