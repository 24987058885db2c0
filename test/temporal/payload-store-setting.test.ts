/** The payload store's setting: the local directory by default, S3 by `MCP_HOST_PAYLOAD_STORE`, refusals by name. */
import { PayloadStoreError } from '../../src/errors/payload-store-error';
import { describePayloadStore, payloadStoreSetting, s3StoreUrl } from '../../src/temporal/payload-store/payload-store-setting';

describe('payloadStoreSetting', () => {
  test('unset or empty: the local directory, described with its path', () => {
    expect(payloadStoreSetting({})).toEqual({ kind: 'local' });
    expect(payloadStoreSetting({ MCP_HOST_PAYLOAD_STORE: ' ' })).toEqual({ kind: 'local' });
    expect(describePayloadStore({ kind: 'local' }, '/srv/payloads')).toBe('Payload store: the directory /srv/payloads (payloads of 256 KiB and more)');
  });

  test('s3://bucket/prefix, with the region of AWS_REGION and an S3-compatible endpoint', () => {
    const setting = payloadStoreSetting({ MCP_HOST_PAYLOAD_STORE: 's3://acme-payloads/mcp-host/prod/', AWS_REGION: 'eu-west-1' });
    expect(setting).toEqual({ kind: 's3', bucket: 'acme-payloads', prefix: 'mcp-host/prod', region: 'eu-west-1', endpoint: undefined });
    expect(describePayloadStore(setting, '/unused')).toBe(
      'Payload store: s3://acme-payloads/mcp-host/prod, region eu-west-1, credentials from the AWS default chain (payloads of 256 KiB and more)',
    );
    const compatible = payloadStoreSetting({ MCP_HOST_PAYLOAD_STORE: 's3://payloads', MCP_HOST_PAYLOAD_S3_ENDPOINT: 'http://127.0.0.1:7070' });
    expect(compatible).toEqual({ kind: 's3', bucket: 'payloads', prefix: '', region: undefined, endpoint: 'http://127.0.0.1:7070' });
    if (compatible.kind !== 's3') throw new Error('not s3');
    expect(s3StoreUrl(compatible)).toBe('s3://payloads');
    expect(describePayloadStore(compatible, '/unused')).toContain('s3://payloads at http://127.0.0.1:7070 (path-style), region us-east-1');
  });

  test.each([
    [{ MCP_HOST_PAYLOAD_STORE: '/srv/payloads' }, /MCP_HOST_PAYLOAD_STORE="\/srv\/payloads" is not s3:\/\/bucket\/prefix/],
    [{ MCP_HOST_PAYLOAD_STORE: 's3://Bad_Bucket/x' }, /not an S3 bucket name/],
    [{ MCP_HOST_PAYLOAD_STORE: 's3://payloads/a/../b' }, /"\.\."/],
    [{ MCP_HOST_PAYLOAD_STORE: 's3://payloads', MCP_HOST_PAYLOAD_S3_ENDPOINT: 'localhost:7070' }, /is not http\(s\)|is not a URL/],
    [{ MCP_HOST_PAYLOAD_STORE: 's3://payloads', MCP_HOST_PAYLOAD_S3_ENDPOINT: 'http://key:secret@127.0.0.1:7070' }, /must not carry credentials/],
    [{ MCP_HOST_PAYLOAD_S3_ENDPOINT: 'http://127.0.0.1:7070' }, /MCP_HOST_PAYLOAD_S3_ENDPOINT is set but MCP_HOST_PAYLOAD_STORE is not/],
  ])('%j is refused by name', (env, message) => {
    expect(() => payloadStoreSetting(env)).toThrow(message);
    expect(() => payloadStoreSetting(env)).toThrow(PayloadStoreError);
  });

  test('a refused endpoint never echoes its credentials', () => {
    try {
      payloadStoreSetting({ MCP_HOST_PAYLOAD_STORE: 's3://payloads', MCP_HOST_PAYLOAD_S3_ENDPOINT: 'http://key:topsecret@127.0.0.1:7070' });
      throw new Error('accepted');
    } catch (err) {
      expect((err as Error).message).not.toContain('topsecret');
    }
  });
});
