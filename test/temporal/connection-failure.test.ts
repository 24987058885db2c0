import { connectionFailureLine, failureCause, type FailedConnection } from '../../src/temporal/connection-failure';
import { splitAddress } from '../../src/temporal/probe-endpoint';

const mtls: FailedConnection = { address: 'temporal.example:7233', addressConfigured: true, tlsMode: 'mTLS', usesApiKey: false };
const tlsOnly: FailedConnection = { ...mtls, tlsMode: 'TLS' };
const plain: FailedConnection = { address: '127.0.0.1:7233', addressConfigured: false, tlsMode: 'plaintext', usesApiKey: false };
const DEADLINE = 'Failed to connect before the deadline';

describe('why a connection failed, in one line', () => {
  test('the line names the address and how it was secured', () => {
    expect(connectionFailureLine({ ...tlsOnly, usesApiKey: true }, 'x')).toBe('cannot reach Temporal at temporal.example:7233 (TLS with API key): x');
    expect(connectionFailureLine(plain, 'y')).toBe('cannot reach Temporal at 127.0.0.1:7233 (plaintext): y');
  });

  test('TCP: refused, unknown host, no answer', () => {
    expect(failureCause({ step: 'tcp', code: 'ECONNREFUSED' }, DEADLINE, plain)).toBe('connection refused: start it with `npm start`, or set TEMPORAL_ADDRESS');
    expect(failureCause({ step: 'tcp', code: 'ECONNREFUSED' }, DEADLINE, mtls)).toBe('connection refused: is the server running, and is the port right?');
    expect(failureCause({ step: 'tcp', code: 'ENOTFOUND' }, DEADLINE, mtls)).toBe('the host name temporal.example does not resolve');
    expect(failureCause({ step: 'tcp', code: 'ETIMEDOUT' }, DEADLINE, mtls)).toMatch(/^no answer from the host/);
  });

  test('TLS: the server wants a client certificate', () => {
    const expected = /^TLS handshake failed: the server requires a client certificate \(set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH/;
    expect(failureCause({ step: 'tls', code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', clientCert: false }, DEADLINE, tlsOnly)).toMatch(expected);
    // TLS 1.2 servers say "handshake failure" or close; without a certificate that means the same.
    expect(failureCause({ step: 'tls', code: 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', clientCert: false }, DEADLINE, tlsOnly)).toMatch(expected);
    expect(failureCause({ step: 'tls', code: 'CLOSED_AFTER_HANDSHAKE', clientCert: false }, DEADLINE, tlsOnly)).toMatch(expected);
  });

  test('TLS: the server refuses the client certificate given', () => {
    for (const code of ['CLOSED_AFTER_HANDSHAKE', 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA', 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE']) {
      expect(failureCause({ step: 'tls', code, clientCert: true }, DEADLINE, mtls)).toBe(
        'TLS handshake failed: the server rejected the client certificate (is it signed by a CA the server trusts?)',
      );
    }
  });

  test("TLS: the server's certificate: untrusted, wrong name, expired", () => {
    expect(failureCause({ step: 'tls', code: 'SELF_SIGNED_CERT_IN_CHAIN', clientCert: true }, DEADLINE, mtls)).toMatch(/not signed by a trusted CA \(set TEMPORAL_TLS_SERVER_CA_CERT_PATH/);
    expect(failureCause({ step: 'tls', code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', clientCert: false }, DEADLINE, tlsOnly)).toMatch(/not signed by a trusted CA/);
    expect(failureCause({ step: 'tls', code: 'ERR_TLS_CERT_ALTNAME_INVALID', clientCert: true }, DEADLINE, { ...mtls, serverName: 'temporal.internal' })).toMatch(
      /not valid for temporal\.internal \(set TEMPORAL_TLS_SERVER_NAME/,
    );
    expect(failureCause({ step: 'tls', code: 'CERT_HAS_EXPIRED', clientCert: true }, DEADLINE, mtls)).toMatch(/has expired/);
  });

  test('TLS to a plaintext server, and plaintext to a TLS server', () => {
    expect(failureCause({ step: 'tls', code: 'ERR_SSL_WRONG_VERSION_NUMBER', clientCert: false }, DEADLINE, tlsOnly)).toMatch(/does not speak TLS on this port/);
    expect(failureCause({ step: 'ok', serverSpeaksTls: true }, DEADLINE, plain)).toMatch(/^the server expects TLS and this connection is plaintext \(set TEMPORAL_TLS=true/);
  });

  test('TCP and TLS fine: the SDK error decides (credentials, or its own words)', () => {
    const ok = { step: 'ok', serverSpeaksTls: true } as const;
    expect(failureCause(ok, '16 UNAUTHENTICATED: Request unauthorized.', { ...tlsOnly, usesApiKey: true })).toBe('the server rejected the credentials (check TEMPORAL_API_KEY)');
    expect(failureCause(ok, '7 PERMISSION_DENIED: no', tlsOnly)).toMatch(/^permission denied/);
    expect(failureCause(ok, DEADLINE, tlsOnly)).toBe('no gRPC answer in time (is this a Temporal frontend?)');
    expect(failureCause({ step: 'ok', serverSpeaksTls: false }, 'something else\nwith a stack', plain)).toBe('something else');
  });

  test('addresses: host:port, [v6]:port', () => {
    expect(splitAddress('temporal.example:7233')).toEqual({ host: 'temporal.example', port: 7233 });
    expect(splitAddress('[::1]:7233')).toEqual({ host: '::1', port: 7233 });
  });
});
