/**
 * Connecting the Temporal way, against a server that requires mTLS: the run's dev server behind a
 * TLS front that demands a client certificate signed by the test's CA. The real CLI and the real
 * worker process connect through TEMPORAL_* variables and through a temporal.toml profile, and run
 * a conversation end to end (offline rules stand-in, the weather MCP server); without a client
 * certificate, or with an untrusted one, both fail at once with one line that says why.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OFFLINE_PREFIX } from '../../src/offline';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { probeEndpoint } from '../../src/temporal/probe-endpoint';
import { REPO_ROOT, weatherServer } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig } from '../support/worker-process';
import { makeCertificates, startTlsFront, type TestCertificates, type TlsFront } from '../temporal/tls-fixture';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

describe('mTLS connections through TEMPORAL_* variables and temporal.toml profiles', () => {
  let certs: TestCertificates;
  let front: TlsFront;
  let fake: FakeMessagesApi;
  let mcpConfigPath: string;
  let port: string;
  let configFile: string;

  /** Only what the test names: no TEMPORAL_* of this machine, no temporal.toml in its home. */
  const baseEnv = (): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    HOME: certs.dir,
    XDG_CONFIG_HOME: path.join(certs.dir, 'config'),
  });
  const viaEnv = (): Record<string, string> => ({
    TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.caCert,
    TEMPORAL_TLS_SERVER_NAME: 'localhost',
    TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: certs.clientKey,
  });
  // TEMPORAL_ADDRESS empty: spawnWorkerProcess sets one, and a set variable would override the profile's.
  const viaProfile = (): Record<string, string> => ({ TEMPORAL_ADDRESS: '', TEMPORAL_CONFIG_FILE: configFile, TEMPORAL_PROFILE: 'mtls' });
  const withoutCert = (): Record<string, string> => {
    const env = viaEnv();
    delete env.TEMPORAL_TLS_CLIENT_CERT_PATH;
    delete env.TEMPORAL_TLS_CLIENT_KEY_PATH;
    return env;
  };

  const cli = (args: string[], env: Record<string, string>, taskQueue = 'unused'): Promise<Run> =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/mcp-host.js'), ...args], {
        cwd: REPO_ROOT,
        env: { ...baseEnv(), MCP_HOST_TASK_QUEUE: taskQueue, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
    });

  /** A worker connected with `env`, and a conversation through the CLI connected with `cliEnv`. */
  async function conversationThrough(workerEnv: Record<string, string>, cliEnv: Record<string, string>): Promise<void> {
    const taskQueue = `tls-${randomUUID()}`;
    const worker = await spawnWorkerProcess({ address: 'unused:1', taskQueue, mcpConfigPath, claudeBaseUrl: fake.url, env: { ...baseEnv(), ...workerEnv } });
    try {
      const before = fake.requests.length;
      const id = `tls-${randomUUID()}`;
      const started = await cli(['start', '--id', id, '--wait', '北京今天天气怎么样'], cliEnv, taskQueue);
      expect(started.stderr).toBe('');
      expect(started.code).toBe(0);
      const [printedId, answer] = started.stdout.split('\n');
      expect(printedId).toBe(id);
      // The stand-in called the weather tool through the worker and summarised its result.
      expect(answer).toContain(OFFLINE_PREFIX.trim());
      expect(answer).toContain('北京今天晴，25°C');
      expect(fake.requests.length - before).toBe(2);
      const status = await cli(['status', id, '--json'], cliEnv, taskQueue);
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ state: 'idle', turnsCompleted: 1, toolCalls: 1 });
      expect(worker.output.join('')).toMatch(/Temporal: .* mTLS \(CA .*ca\.pem, client cert .*client\.pem/);
    } finally {
      await worker.stop();
    }
  }

  beforeAll(async () => {
    certs = makeCertificates();
    front = await startTlsFront(certs, temporalAddress());
    port = front.address.split(':')[1] ?? '';
    fake = await startFakeMessagesApi({ mode: 'rules' });
    mcpConfigPath = writeMcpConfig([weatherServer()]);
    configFile = path.join(certs.dir, 'temporal.toml');
    fs.writeFileSync(
      configFile,
      [
        '[profile.mtls]',
        `address = "localhost:${port}"`,
        '[profile.mtls.tls]',
        `server_ca_cert_path = "${certs.caCert}"`,
        `client_cert_path = "${certs.clientCert}"`,
        `client_key_path = "${certs.clientKey}"`,
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await fake?.close();
    await front?.close();
    if (certs) fs.rmSync(certs.dir, { recursive: true, force: true });
  });

  test('the front refuses a handshake without a client certificate', async () => {
    const ca = fs.readFileSync(certs.caCert);
    expect(await probeEndpoint(front.address, { serverRootCACertificate: ca, serverNameOverride: 'localhost' })).toEqual({
      step: 'tls', code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', clientCert: false,
    });
  });

  test('worker and CLI through TEMPORAL_* variables: a conversation end to end', async () => {
    await conversationThrough(viaEnv(), viaEnv());
  });

  test('worker and CLI through a temporal.toml profile (TEMPORAL_CONFIG_FILE + TEMPORAL_PROFILE)', async () => {
    await conversationThrough(viaProfile(), viaProfile());
  });

  test('CLI without a client certificate: one line, exit 1, within seconds', async () => {
    const run = await cli(['status', 'any-id'], withoutCert());
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `mcp-host: cannot reach Temporal at 127.0.0.1:${port} (TLS): TLS handshake failed: the server requires a client certificate ` +
        "(set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH, or client_cert_path and client_key_path in the profile's tls table)\n",
    );
    expect(run.ms).toBeLessThan(15_000);
  });

  test('CLI with a certificate the server does not trust: one line that says so', async () => {
    const run = await cli(['status', 'any-id'], { ...viaEnv(), TEMPORAL_TLS_CLIENT_CERT_PATH: certs.untrustedCert, TEMPORAL_TLS_CLIENT_KEY_PATH: certs.untrustedKey });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `mcp-host: cannot reach Temporal at 127.0.0.1:${port} (mTLS): TLS handshake failed: the server rejected the client certificate (is it signed by a CA the server trusts?)\n`,
    );
  });

  test('worker without a client certificate: one line, non-zero exit, within seconds', async () => {
    const started = Date.now();
    const failure = await spawnWorkerProcess({
      address: 'unused:1', taskQueue: `tls-${randomUUID()}`, mcpConfigPath, claudeBaseUrl: fake.url, env: { ...baseEnv(), ...withoutCert() },
    }).then(
      () => new Error('the worker started without a client certificate'),
      (err: unknown) => err as Error,
    );
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(failure.message).toMatch(/^worker exited \(1\) before it ran:/);
    const lines = failure.message.split('\n');
    expect(lines).toContain(
      `mcp-host worker: cannot reach Temporal at 127.0.0.1:${port} (TLS): TLS handshake failed: the server requires a client certificate ` +
        "(set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH, or client_cert_path and client_key_path in the profile's tls table)",
    );
    expect(failure.message).not.toMatch(/^\s+at /m);
  });
});
