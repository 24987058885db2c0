/**
 * The worker deployment settings (Worker Versioning): off unless MCP_HOST_DEPLOYMENT names one, the
 * build id from MCP_HOST_BUILD_ID or the package version and commit, bad values refused by name.
 */
import { DeploymentSettingError, defaultBuildId, deploymentFromEnv, versionLabel, workerDeploymentOptions } from '../../src/worker/worker-deployment';

describe('worker deployment settings', () => {
  test('off unless a deployment is named', () => {
    expect(deploymentFromEnv({})).toBeUndefined();
    expect(deploymentFromEnv({ MCP_HOST_DEPLOYMENT: '  ' })).toBeUndefined();
    // An image's baked build id alone turns nothing on.
    expect(deploymentFromEnv({ MCP_HOST_BUILD_ID: 'b1' })).toBeUndefined();
  });

  test('the build id: given, or the package version and commit', () => {
    expect(deploymentFromEnv({ MCP_HOST_DEPLOYMENT: 'durable-mcp-host', MCP_HOST_BUILD_ID: 'b1' })).toEqual({ deploymentName: 'durable-mcp-host', buildId: 'b1' });
    expect(deploymentFromEnv({ MCP_HOST_DEPLOYMENT: 'hosts' }, () => '0.1.0-abc')).toEqual({ deploymentName: 'hosts', buildId: '0.1.0-abc' });
    // This checkout: the package's version, then the commit.
    expect(defaultBuildId()).toMatch(/^\d+\.\d+\.\d+(-[0-9a-f]{12})?$/);
  });

  test('bad names are refused by variable', () => {
    expect(() => deploymentFromEnv({ MCP_HOST_DEPLOYMENT: 'my.hosts' })).toThrow(DeploymentSettingError);
    expect(() => deploymentFromEnv({ MCP_HOST_DEPLOYMENT: 'my.hosts' })).toThrow(/^MCP_HOST_DEPLOYMENT "my.hosts": use letters/);
    expect(() => deploymentFromEnv({ MCP_HOST_DEPLOYMENT: 'hosts', MCP_HOST_BUILD_ID: 'has space' })).toThrow(/^MCP_HOST_BUILD_ID "has space"/);
  });

  test('the worker options pin conversations to the version', () => {
    const version = { deploymentName: 'hosts', buildId: 'b2' };
    expect(workerDeploymentOptions(version)).toEqual({ useWorkerVersioning: true, version, defaultVersioningBehavior: 'PINNED' });
    expect(versionLabel(version)).toBe('hosts:b2');
  });
});
