import { composeDynamicConfig, composeTemporalVersion } from '../../scripts/cluster/server-config';
import { devServerTuningArgs, SERVER_TUNING, serverTuningYaml } from '../../src/temporal/server-tuning';

describe('server tuning', () => {
  test('the dev server gets each setting as a --dynamic-config-value, its value as JSON', () => {
    expect(devServerTuningArgs()).toEqual([
      '--dynamic-config-value',
      'history.timerProcessorMaxTimeShift="100ms"',
      '--dynamic-config-value',
      'history.transferProcessorMaxPollRPS=200',
    ]);
  });

  test("docker-compose.yml's dynamic config (which npm run test:cluster runs) has every setting", () => {
    const config = composeDynamicConfig();
    expect(config).toContain(`${serverTuningYaml().join('\n')}\n`);
    expect(config.startsWith('limit.maxIDLength:\n  - value: 255\n')).toBe(true);
    for (const { key } of SERVER_TUNING) expect(config.split('\n').filter((line) => line === `${key}:`)).toHaveLength(1);
  });

  test('a compose file without the heredoc is refused, naming what is missing', () => {
    expect(() => composeDynamicConfig('services: {}\n')).toThrow(/no dynamic config heredoc/);
  });

  test("the cluster builds docker-compose.yml's Temporal version, and a compose file whose images disagree is refused", () => {
    expect(composeTemporalVersion()).toBe('1.32.1');
    const image = (name: string, version: string): string => `    image: temporalio/${name}:\${TEMPORAL_VERSION:-${version}}\n`;
    expect(composeTemporalVersion(image('admin-tools', '1.30.0') + image('server', '1.30.0'))).toBe('1.30.0');
    expect(() => composeTemporalVersion(image('admin-tools', '1.31.2') + image('server', '1.32.1'))).toThrow(/found 1\.31\.2, 1\.32\.1/);
    expect(() => composeTemporalVersion('services: {}\n')).toThrow(/found none/);
  });
});
