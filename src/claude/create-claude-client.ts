import Anthropic from '@anthropic-ai/sdk';
import { claudeHttpOptions } from './claude-http-agent';

/** The `anthropic-version` the seed's wire contract uses (§3.1); `ANTHROPIC_VERSION` picks another. */
export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

/** What the worker reads from its environment to reach Claude. Never passed to workflows or activities. */
export interface ClaudeClientSettings {
  apiKey: string;
  baseURL?: string;
  version?: string;
}

/**
 * A Messages API client that sends the seed's headers (`x-api-key`, `anthropic-version: 2023-06-01`)
 * instead of the SDK 1.x defaults (`Authorization: Bearer`, a newer version), and never retries:
 * Temporal owns retries (house rule 4). The SDK's own spans are off: with tracing on, the host's
 * `chat` span is the one per call (src/telemetry/traced-activities.ts), so GenAI tools count each
 * call once and one switch rules content capture; the trace context still goes with each request.
 */
export function createClaudeClient(settings: ClaudeClientSettings): Anthropic {
  return new Anthropic({
    // An explicit credential stops the SDK from reading the environment or credential files.
    apiKey: settings.apiKey,
    ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
    maxRetries: 0,
    openTelemetry: { traces: false },
    // Each call sets its own limits (src/errors/claude-time-limits.ts); this is the default of a call
    // that sets none (the SDK's own 10 minutes, until the response's headers). No HTTP timeout of
    // Node's cuts earlier: the agent's are off.
    timeout: 10 * 60 * 1000,
    ...claudeHttpOptions(),
    defaultHeaders: {
      'x-api-key': settings.apiKey,
      'anthropic-version': settings.version ?? DEFAULT_ANTHROPIC_VERSION,
      // Later header layers override earlier ones; null removes the SDK's Bearer header.
      Authorization: null,
    },
  });
}
