import Anthropic from '@anthropic-ai/sdk';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';

/** The key the SDK clients of the fake-API tests send. */
export const API_KEY = 'sk-ant-test-key';
/** The model the fake-API tests ask for (the fake echoes it). */
export const MODEL = 'claude-sonnet-4-6';

/**
 * A client with the options the host uses against the real API: key in `x-api-key`, the 2023-06-01 API
 * version, and no `Authorization` header. Passing `apiKey` keeps the SDK from reading
 * ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN or credential files; the SDK would send it as
 * `Authorization: Bearer`, which the `null` removes.
 */
export function sdkClientFor(url: string): Anthropic {
  return new Anthropic({
    baseURL: url,
    apiKey: API_KEY,
    maxRetries: 0,
    defaultHeaders: { 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01', Authorization: null },
  });
}

/** The seed's weather tool. */
export const weatherTool: Tool = {
  name: 'get_weather',
  description: '根据城市名查询实时天气',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** The error `promise` rejects with; a promise that resolves fails the test. */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}
