/**
 * One line that says why a connection to Temporal failed — the address, how it was secured, and the
 * likely cause with what to set — instead of an SDK stack or grpc-js's "Failed to connect before
 * the deadline", which it says for every cause alike.
 */
import type { TemporalConnectionConfig } from './connection-config';
import { probeEndpoint, splitAddress, type ProbeFinding } from './probe-endpoint';
import { shortReason } from './run-command';

/** What the explanation needs to know of the connection: no secrets. */
export interface FailedConnection {
  address: string;
  addressConfigured: boolean;
  tlsMode: TemporalConnectionConfig['tlsMode'];
  usesApiKey: boolean;
  serverName?: string;
}

const CLIENT_CERT_HINT =
  'set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH, or client_cert_path and client_key_path in the profile\'s tls table';

const UNTRUSTED_SERVER = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE',
]);
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ECONNRESET', 'EPROTO']);
/** Alerts (or a silent close) with which a server turns a client certificate down. */
const CLIENT_CERT_REFUSED = /ALERT_UNKNOWN_CA|ALERT_BAD_CERTIFICATE|ALERT_CERTIFICATE_UNKNOWN|ALERT_UNSUPPORTED_CERTIFICATE|ALERT_DECRYPT_ERROR|ALERT_ACCESS_DENIED|ALERT_HANDSHAKE_FAILURE|CLOSED_AFTER_HANDSHAKE/;

function tcpCause(code: string, connection: FailedConnection): string {
  switch (code) {
    case 'ECONNREFUSED':
      return connection.addressConfigured
        ? 'connection refused: is the server running, and is the port right?'
        : 'connection refused: start it with `npm start`, or set TEMPORAL_ADDRESS';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name ${splitAddress(connection.address).host} does not resolve`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no answer from the host (wrong address or port, or a firewall?)';
    default:
      return `TCP connect failed (${code})`;
  }
}

function tlsCause(code: string, clientCert: boolean, connection: FailedConnection): string {
  if (code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' || (!clientCert && CLIENT_CERT_REFUSED.test(code))) {
    return `TLS handshake failed: the server requires a client certificate (${CLIENT_CERT_HINT})`;
  }
  if (code.includes('ALERT_CERTIFICATE_EXPIRED')) return 'TLS handshake failed: the server rejected the client certificate as expired';
  if (CLIENT_CERT_REFUSED.test(code)) {
    return 'TLS handshake failed: the server rejected the client certificate (is it signed by a CA the server trusts?)';
  }
  if (UNTRUSTED_SERVER.has(code)) {
    return "TLS handshake failed: the server's certificate is not signed by a trusted CA (set TEMPORAL_TLS_SERVER_CA_CERT_PATH to its CA)";
  }
  if (code === 'CERT_HAS_EXPIRED') return "TLS handshake failed: the server's certificate has expired";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const name = connection.serverName ?? splitAddress(connection.address).host;
    return `TLS handshake failed: the server's certificate is not valid for ${name} (set TEMPORAL_TLS_SERVER_NAME to a name it is issued for)`;
  }
  if (NOT_TLS.has(code)) {
    return 'TLS handshake failed: the server does not speak TLS on this port (a plaintext server? then set TEMPORAL_TLS=false or remove the TLS settings)';
  }
  if (code === 'ETIMEDOUT') return 'TLS handshake timed out';
  return `TLS handshake failed (${code})`;
}

function sdkCause(sdkMessage: string, connection: FailedConnection): string {
  if (/UNAUTHENTICATED|Unauthenticated|\b16 UNAUTH/i.test(sdkMessage)) {
    return `the server rejected the credentials (${connection.usesApiKey ? 'check TEMPORAL_API_KEY' : 'does it need TEMPORAL_API_KEY?'})`;
  }
  if (/PERMISSION_DENIED|PermissionDenied/i.test(sdkMessage)) return 'permission denied: the credentials have no access here';
  if (/before the deadline|DEADLINE_EXCEEDED/i.test(sdkMessage)) return 'no gRPC answer in time (is this a Temporal frontend?)';
  return shortReason(sdkMessage);
}

/**
 * The likely cause of a failed connection from what the probe saw, else from the SDK's message
 * (e.g. an API key the server refused: TLS and TCP were fine). Pure: the tests feed it findings.
 */
export function failureCause(finding: ProbeFinding, sdkMessage: string, connection: FailedConnection): string {
  switch (finding.step) {
    case 'tcp':
      return tcpCause(finding.code, connection);
    case 'tls':
      return tlsCause(finding.code, finding.clientCert, connection);
    case 'ok':
      if (connection.tlsMode === 'plaintext' && finding.serverSpeaksTls) {
        return 'the server expects TLS and this connection is plaintext (set TEMPORAL_TLS=true; for a private CA TEMPORAL_TLS_SERVER_CA_CERT_PATH; for mTLS a client certificate)';
      }
      return sdkCause(sdkMessage, connection);
  }
}

/** The one line: `cannot reach Temporal at ADDRESS (mTLS): CAUSE`. */
export function connectionFailureLine(connection: FailedConnection, cause: string): string {
  const security = `${connection.tlsMode}${connection.usesApiKey ? ' with API key' : ''}`;
  return `cannot reach Temporal at ${connection.address} (${security}): ${cause}`;
}

/** The error's message and its causes' (the SDK wraps the gRPC status in a cause). */
function messageChain(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  while (current !== undefined && current !== null && parts.length < 5) {
    if (current instanceof Error) {
      parts.push(current.message);
      current = current.cause;
    } else {
      parts.push(typeof current === 'string' ? current : JSON.stringify(current) ?? '');
      current = undefined;
    }
  }
  return parts.join(': ');
}

/** Probes the endpoint and returns the one-line error for `err`, a failed connect with `config`. */
export async function connectionFailure(config: TemporalConnectionConfig, err: unknown): Promise<Error> {
  const serverName = config.tlsSettings()?.serverNameOverride;
  const connection: FailedConnection = {
    address: config.address,
    addressConfigured: config.addressConfigured,
    tlsMode: config.tlsMode,
    usesApiKey: config.usesApiKey,
    ...(serverName !== undefined ? { serverName } : {}),
  };
  const finding = await probeEndpoint(config.address, config.tlsSettings()).catch(
    (): ProbeFinding => ({ step: 'ok', serverSpeaksTls: config.tlsMode !== 'plaintext' }),
  );
  return new Error(connectionFailureLine(connection, failureCause(finding, messageChain(err), connection)), { cause: err });
}
