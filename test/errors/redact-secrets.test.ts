/**
 * Error text without secrets: the values the worker knows, and what is a secret by its place in
 * a URL or a header; ordinary text stays as it was.
 */
import { MIN_SECRET_LENGTH, REDACTED, redactSecrets } from '../../src/errors/redact-secrets';

describe('redactSecrets', () => {
  test('known values, wherever they stand, also URL-encoded; longer ones first', () => {
    expect(redactSecrets('the backend refused the key env-s3cret-3f6a (twice: env-s3cret-3f6a)', ['env-s3cret-3f6a'])).toBe(
      `the backend refused the key ${REDACTED} (twice: ${REDACTED})`,
    );
    expect(redactSecrets('GET /v1/p%40ss%2Fw0rd! failed', ['p@ss/w0rd!'])).toBe(`GET /v1/${REDACTED} failed`);
    expect(redactSecrets('GET /v1?x=p%40ss%2Fw0rd%21+2 failed', ['p@ss/w0rd! 2'])).toBe(`GET /v1?x=${REDACTED} failed`);
    expect(redactSecrets('token abcdef123456 and its prefix abcdef', ['abcdef', 'abcdef123456'])).toBe(`token ${REDACTED} and its prefix ${REDACTED}`);
  });

  test(`known values shorter than ${MIN_SECRET_LENGTH} characters are left alone, as are empty ones`, () => {
    expect(redactSecrets('the prod server is down', ['prod', ''])).toBe('the prod server is down');
  });

  test('the user and password of a URL, and a token as its user', () => {
    expect(redactSecrets('Request cannot be constructed from a URL that includes credentials: http://svc-user:pw@127.0.0.1:4000/mcp')).toBe(
      `Request cannot be constructed from a URL that includes credentials: http://${REDACTED}@127.0.0.1:4000/mcp`,
    );
    expect(redactSecrets('clone of https://ghp_abc123@github.com/o/r failed')).toBe(`clone of https://${REDACTED}@github.com/o/r failed`);
    // An address in prose is not a URL.
    expect(redactSecrets('mail ops@example.com')).toBe('mail ops@example.com');
  });

  test('query parameters named like credentials, in a URL or a JSON-quoted URL; other parameters stay', () => {
    expect(redactSecrets('POST /mcp?token=abc&region=eu&api_key=k1#access_token=t2')).toBe(
      `POST /mcp?token=${REDACTED}&region=eu&api_key=${REDACTED}#access_token=${REDACTED}`,
    );
    expect(redactSecrets('{"url":"https://s3/x?X-Amz-Signature=deadbeef&X-Amz-Credential=AKIA/2026","page":2}')).toBe(
      `{"url":"https://s3/x?X-Amz-Signature=${REDACTED}&X-Amz-Credential=${REDACTED}","page":2}`,
    );
    expect(redactSecrets('GET /search?q=weather&page=2')).toBe('GET /search?q=weather&page=2');
  });

  test('Authorization and API-key header values, and Bearer tokens anywhere', () => {
    expect(redactSecrets('(authorization: Bearer hdr-123)')).toBe(`(authorization: Bearer ${REDACTED})`);
    expect(redactSecrets('{"Authorization":"Basic dXNlcjpwdw=="}')).toBe(`{"Authorization":"Basic ${REDACTED}"}`);
    expect(redactSecrets('x-api-key: k-999; retry')).toBe(`x-api-key: ${REDACTED}; retry`);
    expect(redactSecrets('sent Bearer eyJhbGciOi.J9 upstream')).toBe(`sent Bearer ${REDACTED} upstream`);
    expect(redactSecrets('the server wants Bearer authentication')).toBe('the server wants Bearer authentication');
  });

  test('an Anthropic API key', () => {
    expect(redactSecrets('invalid x-api-key sk-ant-api03-AbC_dEf-123')).toBe(`invalid x-api-key ${REDACTED}`);
    expect(redactSecrets('key sk-ant-api03-AbC_dEf-123 rejected')).toBe(`key ${REDACTED} rejected`);
  });

  test('ordinary error text is unchanged, and redacting twice changes nothing more', () => {
    const plain = 'tools/call "get_weather" on MCP server "weather" timed out after 60000 ms (the server\'s timeoutMs)';
    expect(redactSecrets(plain, ['hdr-s3cret'])).toBe(plain);
    const once = redactSecrets('https://u:p@h/x?token=t (authorization: Bearer abc-1)', ['abc-1-long']);
    expect(redactSecrets(once)).toBe(once);
  });
});
