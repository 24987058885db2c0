import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inspect } from 'node:util';
import { loadConnectionConfig } from '../../src/temporal/connection-config';
import { temporalConfigFile } from '../../src/temporal/temporal-config-file';

const API_KEY = 'tmprl-api-key-SECRET-0123456789';
const KEY_PEM = '-----BEGIN PRIVATE KEY-----\nSECRET-KEY-MATERIAL\n-----END PRIVATE KEY-----\n';

describe('Temporal connection settings (envconfig)', () => {
  let dir: string;
  let files: { ca: string; cert: string; key: string; toml: string };
  /** An environment of the test's own: no variable or temporal.toml of this machine leaks in. */
  const env = (vars: Record<string, string> = {}): NodeJS.ProcessEnv => ({ HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), ...vars });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'connection-config-'));
    files = { ca: path.join(dir, 'ca.pem'), cert: path.join(dir, 'client.pem'), key: path.join(dir, 'client.key'), toml: path.join(dir, 'temporal.toml') };
    fs.writeFileSync(files.ca, 'CA-PEM');
    fs.writeFileSync(files.cert, 'CLIENT-CERT-PEM');
    fs.writeFileSync(files.key, KEY_PEM);
    fs.writeFileSync(
      files.toml,
      [
        '[profile.default]',
        'address = "default.example:7233"',
        '',
        '[profile.tls]',
        'address = "tls.example:7233"',
        'namespace = "prod"',
        '[profile.tls.tls]',
        `client_cert_path = "${files.cert}"`,
        `client_key_path = "${files.key}"`,
        `server_ca_cert_path = "${files.ca}"`,
        'server_name = "temporal.internal"',
        '',
        '[profile.cloud]',
        'address = "ns.acct.tmprl.cloud:7233"',
        'namespace = "ns.acct"',
        `api_key = "${API_KEY}"`,
        '[profile.cloud.grpc_meta]',
        'x-team = "hosts"',
        '',
      ].join('\n'),
    );
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('no home folder: no default file is looked for (never one relative to the cwd)', () => {
    expect(loadConnectionConfig({})).toMatchObject({ address: '127.0.0.1:7233', addressConfigured: false });
  });

  test('nothing configured: the dev server address, plaintext, not "configured"', () => {
    const config = loadConnectionConfig(env());
    expect(config).toMatchObject({ address: '127.0.0.1:7233', addressConfigured: false, namespace: 'default', tlsMode: 'plaintext', usesApiKey: false });
    expect(config.clientOptions()).toEqual({
      address: '127.0.0.1:7233',
      tls: false,
      channelArgs: { 'grpc.max_receive_message_length': 128 * 1024 * 1024, 'grpc.initial_reconnect_backoff_ms': 250, 'grpc.max_reconnect_backoff_ms': 1000 },
    });
    expect(config.nativeOptions()).toEqual({ address: '127.0.0.1:7233', tls: false });
    expect(config.description).toBe('127.0.0.1:7233, namespace "default", plaintext, from defaults');
  });

  test('env: address, namespace, mTLS files as Buffers, server name — the same for both SDK connections', () => {
    const config = loadConnectionConfig(
      env({
        TEMPORAL_ADDRESS: 'temporal.example:7233',
        TEMPORAL_NAMESPACE: 'hosts',
        TEMPORAL_TLS_CLIENT_CERT_PATH: files.cert,
        TEMPORAL_TLS_CLIENT_KEY_PATH: files.key,
        TEMPORAL_TLS_SERVER_CA_CERT_PATH: files.ca,
        TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
      }),
    );
    expect(config).toMatchObject({ address: 'temporal.example:7233', addressConfigured: true, namespace: 'hosts', tlsMode: 'mTLS' });
    const tls = {
      serverNameOverride: 'temporal.internal',
      serverRootCACertificate: Buffer.from('CA-PEM'),
      clientCertPair: { crt: Buffer.from('CLIENT-CERT-PEM'), key: Buffer.from(KEY_PEM) },
    };
    const client = config.clientOptions();
    expect(client).toEqual({ address: 'temporal.example:7233', tls, channelArgs: { 'grpc.max_receive_message_length': 128 * 1024 * 1024, 'grpc.initial_reconnect_backoff_ms': 250, 'grpc.max_reconnect_backoff_ms': 1000 } });
    const clientTls = client.tls as { serverRootCACertificate: unknown; clientCertPair: { key: unknown } };
    expect(Buffer.isBuffer(clientTls.serverRootCACertificate)).toBe(true);
    expect(Buffer.isBuffer(clientTls.clientCertPair.key)).toBe(true);
    expect(config.nativeOptions()).toEqual({ address: 'temporal.example:7233', tls });
    expect(config.description).toBe(
      `temporal.example:7233, namespace "hosts", mTLS (CA ${files.ca}, client cert ${files.cert}, server name temporal.internal), from environment`,
    );
  });

  test('TEMPORAL_TLS=true alone: TLS with the system roots', () => {
    const config = loadConnectionConfig(env({ TEMPORAL_ADDRESS: 'a:1', TEMPORAL_TLS: 'true' }));
    expect(config.tlsMode).toBe('TLS');
    expect(config.nativeOptions()).toEqual({ address: 'a:1', tls: {} });
  });

  test('an API key turns TLS on (as the SDK does), unless TLS is explicitly off', () => {
    const cloud = loadConnectionConfig(env({ TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233', TEMPORAL_NAMESPACE: 'ns.acct', TEMPORAL_API_KEY: API_KEY }));
    expect(cloud).toMatchObject({ tlsMode: 'TLS', usesApiKey: true });
    expect(cloud.clientOptions()).toMatchObject({ tls: {}, apiKey: API_KEY });
    expect(cloud.nativeOptions()).toEqual({ address: 'ns.acct.tmprl.cloud:7233', tls: {}, apiKey: API_KEY });
    expect(cloud.description).toBe('ns.acct.tmprl.cloud:7233, namespace "ns.acct", TLS with API key, from environment');

    const proxied = loadConnectionConfig(env({ TEMPORAL_ADDRESS: 'localhost:7233', TEMPORAL_API_KEY: API_KEY, TEMPORAL_TLS: 'false' }));
    expect(proxied.tlsMode).toBe('plaintext');
    expect(proxied.nativeOptions()).toEqual({ address: 'localhost:7233', tls: false, apiKey: API_KEY });
  });

  test('empty variables are unset (Compose writes `${TEMPORAL_API_KEY:-}`)', () => {
    const config = loadConnectionConfig(env({ TEMPORAL_ADDRESS: '', TEMPORAL_API_KEY: '', TEMPORAL_NAMESPACE: ' ' }));
    expect(config).toMatchObject({ address: '127.0.0.1:7233', addressConfigured: false, namespace: 'default', tlsMode: 'plaintext', usesApiKey: false });
  });

  test('profile file: TEMPORAL_CONFIG_FILE + TEMPORAL_PROFILE give mTLS, with the profile named in the description', () => {
    const config = loadConnectionConfig(env({ TEMPORAL_CONFIG_FILE: files.toml, TEMPORAL_PROFILE: 'tls' }));
    expect(config).toMatchObject({ address: 'tls.example:7233', addressConfigured: true, namespace: 'prod', tlsMode: 'mTLS' });
    expect(config.nativeOptions()).toEqual({
      address: 'tls.example:7233',
      tls: {
        serverNameOverride: 'temporal.internal',
        serverRootCACertificate: Buffer.from('CA-PEM'),
        clientCertPair: { crt: Buffer.from('CLIENT-CERT-PEM'), key: Buffer.from(KEY_PEM) },
      },
    });
    expect(config.description).toContain(`from profile "tls" of ${files.toml}`);
  });

  test('profile file: the default profile, and environment variables override it', () => {
    expect(loadConnectionConfig(env({ TEMPORAL_CONFIG_FILE: files.toml }))).toMatchObject({ address: 'default.example:7233', addressConfigured: true });
    const overridden = loadConnectionConfig(env({ TEMPORAL_CONFIG_FILE: files.toml, TEMPORAL_PROFILE: 'tls', TEMPORAL_ADDRESS: 'other:7233' }));
    expect(overridden).toMatchObject({ address: 'other:7233', namespace: 'prod', tlsMode: 'mTLS' });
    expect(overridden.description).toContain(`from environment + profile "tls" of ${files.toml}`);
  });

  test('profile file: API key and gRPC metadata from the profile', () => {
    const config = loadConnectionConfig(env({ TEMPORAL_CONFIG_FILE: files.toml, TEMPORAL_PROFILE: 'cloud' }));
    expect(config.clientOptions()).toMatchObject({ address: 'ns.acct.tmprl.cloud:7233', tls: {}, apiKey: API_KEY, metadata: { 'x-team': 'hosts' } });
    expect(config.nativeOptions()).toEqual({ address: 'ns.acct.tmprl.cloud:7233', tls: {}, apiKey: API_KEY, metadata: { 'x-team': 'hosts' } });
  });

  test("the user's default temporal.toml counts as configuration", () => {
    const configDir = path.join(dir, 'config', 'temporalio');
    fs.mkdirSync(configDir, { recursive: true });
    fs.copyFileSync(files.toml, path.join(configDir, 'temporal.toml'));
    expect(loadConnectionConfig(env())).toMatchObject({ address: 'default.example:7233', addressConfigured: true });
  });

  test('secrets never reach the description, JSON or inspect output', () => {
    const inline = loadConnectionConfig(
      env({ TEMPORAL_ADDRESS: 'a:1', TEMPORAL_API_KEY: API_KEY, TEMPORAL_TLS_CLIENT_CERT_DATA: 'CLIENT-CERT-PEM', TEMPORAL_TLS_CLIENT_KEY_DATA: KEY_PEM }),
    );
    const fromFiles = loadConnectionConfig(env({ TEMPORAL_CONFIG_FILE: files.toml, TEMPORAL_PROFILE: 'cloud' }));
    const mtls = loadConnectionConfig(env({ TEMPORAL_CONFIG_FILE: files.toml, TEMPORAL_PROFILE: 'tls' }));
    expect(inline.description).toBe('a:1, namespace "default", mTLS (client cert (inline)) with API key, from environment');
    for (const config of [inline, fromFiles, mtls, inline.withAddress('b:2', 'test')]) {
      for (const shown of [config.description, JSON.stringify(config), inspect(config, { depth: 10 }), JSON.stringify({ settings: { temporal: config } })]) {
        expect(shown).not.toContain('SECRET');
        expect(shown).not.toContain(API_KEY);
      }
    }
  });

  test('withAddress keeps TLS and credentials', () => {
    const config = loadConnectionConfig(env({ TEMPORAL_CONFIG_FILE: files.toml, TEMPORAL_PROFILE: 'cloud' })).withAddress('127.0.0.1:7234', 'the test');
    expect(config.nativeOptions()).toMatchObject({ address: '127.0.0.1:7234', tls: {}, apiKey: API_KEY });
    expect(config.description).toBe('127.0.0.1:7234, namespace "ns.acct", TLS with API key, from the test');
  });

  test('unusable settings: one line that names the problem', () => {
    const missingFile = path.join(dir, 'nope.toml');
    expect(() => loadConnectionConfig(env({ TEMPORAL_CONFIG_FILE: missingFile }))).toThrow(`Temporal connection settings: TEMPORAL_CONFIG_FILE=${missingFile} does not exist`);
    expect(() => loadConnectionConfig(env({ TEMPORAL_CONFIG_FILE: files.toml, TEMPORAL_PROFILE: 'staging' }))).toThrow(
      `Temporal connection settings (profile "staging" of ${files.toml}): Profile 'staging' not found in config data`,
    );
    expect(() => loadConnectionConfig(env({ TEMPORAL_ADDRESS: 'a:1', TEMPORAL_TLS_CLIENT_CERT_PATH: path.join(dir, 'gone.pem'), TEMPORAL_TLS_CLIENT_KEY_PATH: files.key }))).toThrow(
      /^Temporal connection settings: ENOENT: no such file or directory, open '.*gone\.pem'$/,
    );
    fs.writeFileSync(files.toml, '[profile.default\naddress = 1');
    expect(() => loadConnectionConfig(env({ TEMPORAL_CONFIG_FILE: files.toml }))).toThrow(/^Temporal connection settings \(profile "default" of .*\): .+/);
  });
});

describe('the temporal.toml location', () => {
  test('TEMPORAL_CONFIG_FILE, else the per-platform user config folder', () => {
    expect(temporalConfigFile({ TEMPORAL_CONFIG_FILE: '/x/t.toml' }, 'linux')).toEqual({ path: '/x/t.toml', explicit: true });
    expect(temporalConfigFile({ HOME: '/home/u' }, 'linux')).toEqual({ path: '/home/u/.config/temporalio/temporal.toml', explicit: false });
    expect(temporalConfigFile({ HOME: '/home/u', XDG_CONFIG_HOME: '/xdg' }, 'linux')?.path).toBe('/xdg/temporalio/temporal.toml');
    expect(temporalConfigFile({ HOME: '/Users/u' }, 'darwin')?.path).toBe('/Users/u/Library/Application Support/temporalio/temporal.toml');
    expect(temporalConfigFile({}, 'linux')).toBeUndefined();
  });
});
