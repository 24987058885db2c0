/**
 * The MCP protocol revisions the host speaks, and how one is chosen per server.
 *
 * - 2026-07-28 (the modern era: stateless, per-request `_meta`, `server/discover`) with every
 *   server that speaks it;
 * - the 2025 revisions (the legacy era: the three-step `initialize` handshake) with the others. The
 *   handshake offers 2025-06-18 first, as the seed's rule S3 says; a server that answers with
 *   another 2025 revision (2025-11-25, 2025-03-26, 2024-11-05) is accepted.
 *
 * Without a pin the era is found the way the specification's backward-compatibility section says
 * (`open-client.ts`): a `server/discover` probe, on a disposable sibling process for stdio, so the
 * process that serves the connection sees `initialize` first when it is a legacy server. A
 * per-server `"protocolVersion"` in mcp.json pins one revision: no probe, and nothing else accepted.
 */

/** The modern revisions the host speaks, newest first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** The legacy revisions the host speaks, in the order the handshake prefers them (the seed's first). */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-06-18', '2025-11-25', '2025-03-26', '2024-11-05'];

/** Every revision the host speaks: a pin must name one of these. */
export const SPOKEN_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/** Whether `version` is of the modern era (2026-07-28 and later). */
export function isModernVersion(version: string): boolean {
  return version >= '2026-07-28';
}
