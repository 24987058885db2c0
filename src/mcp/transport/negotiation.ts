/**
 * How the SDK v2 client is told which revisions to speak with one server, and what it settled on.
 *
 * - No pin: `versionNegotiation: auto`. On stdio the SDK probes with `server/discover` on a
 *   disposable sibling process (its stderr discarded) and starts the server's real process once the
 *   era is known, so a legacy server's process sees `initialize` first (S3); on Streamable HTTP the
 *   probe is a session-less POST, and a legacy server's session starts with `initialize`. A stdio
 *   server silent for {@link STDIO_PROBE_TIMEOUT_MS} is a legacy one (the spec's rule).
 * - A legacy pin: the plain 2025 handshake offering exactly that revision, no probe.
 * - A modern pin: `server/discover` must offer exactly that revision; no fallback.
 *
 * The legacy handshake offers 2025-06-18 (the first legacy entry of `supportedProtocolVersions`).
 */
import type { Client, ClientOptions, PriorDiscovery } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config';
import { isModernVersion, SPOKEN_PROTOCOL_VERSIONS } from './protocol-versions';
import { hostCapabilities } from '../server-requests';

/**
 * How long a stdio server may stay silent on the era probe before it counts as a legacy server.
 * Legacy servers may ignore an unknown request before `initialize`; a modern one answers at once
 * once started, and a first `npx -y` start that downloads the server is slower than this only once.
 */
export const STDIO_PROBE_TIMEOUT_MS = 10_000;

/** How the revision was chosen: probed now, remembered from an earlier probe, or pinned in mcp.json. */
export type NegotiationSource = 'probed' | 'remembered' | 'pinned';

/** The revision a connection speaks. */
export interface NegotiatedProtocol {
  /** The revision, e.g. `2026-07-28` or `2025-06-18`. */
  version: string;
  era: 'modern' | 'legacy';
  source: NegotiationSource;
}

/**
 * The SDK client's options for `server`: the capabilities of src/mcp/server-requests.ts, and its
 * revisions. `legacySse`: the connection is the legacy HTTP+SSE transport (configured, or the
 * fallback of a Streamable HTTP server), which has no 2026-07-28 binding and starts with `initialize`.
 */
export function clientOptionsFor(server: McpServerConfig, legacySse = false): ClientOptions {
  const pin = server.protocolVersion;
  const capabilities = hostCapabilities(server);
  // `input_required` results go to the workflow, which keeps the wait (src/workflows/server-input.ts):
  // the SDK must not answer them itself while the call is open.
  const inputRequired = { autoFulfill: false };
  if (pin !== undefined) {
    return {
      capabilities,
      inputRequired,
      supportedProtocolVersions: [pin],
      versionNegotiation: isModernVersion(pin) ? { mode: { pin } } : { mode: 'legacy' },
    };
  }
  if (legacySse) return { capabilities, inputRequired, supportedProtocolVersions: [...SPOKEN_PROTOCOL_VERSIONS], versionNegotiation: { mode: 'legacy' } };
  return {
    capabilities,
    inputRequired,
    supportedProtocolVersions: [...SPOKEN_PROTOCOL_VERSIONS],
    versionNegotiation: { mode: 'auto', ...(server.transport === 'stdio' ? { probe: { timeoutMs: STDIO_PROBE_TIMEOUT_MS } } : {}) },
  };
}

/** What `client` settled on once connected to `server`, from `prior` when given. */
export function negotiatedProtocol(client: Client, server: McpServerConfig, prior: PriorDiscovery | undefined): NegotiatedProtocol {
  const version = client.getNegotiatedProtocolVersion() ?? 'unknown';
  return {
    version,
    era: isModernVersion(version) ? 'modern' : 'legacy',
    source: server.protocolVersion !== undefined ? 'pinned' : prior !== undefined ? 'remembered' : 'probed',
  };
}
