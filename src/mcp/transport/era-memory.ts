/**
 * Which era each server spoke, remembered so the next connection to it skips the probe: the
 * specification's backward-compatibility section says clients SHOULD cache the era for the server
 * process (stdio) or origin (HTTP) and MAY keep it across restarts of the same server
 * configuration, probing again when the assumption fails. Here it is kept for the worker process's
 * lifetime, per server configuration (command, arguments, working directory and environment; or
 * URL), so a stdio server that reconnects after a crash or an idle close is not probed again, and a
 * legacy one never sees a probe on any later process. It is forgotten when a connect that relied on
 * it fails.
 */
import { createHash } from 'node:crypto';
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config';

/** A digest of what makes `server` the same server: its values (secrets among them) never leave it. */
function identity(server: McpServerConfig): string {
  const what =
    server.transport === 'stdio'
      ? ['stdio', server.command, server.args, server.cwd ?? null, Object.entries(server.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]
      : [server.transport, server.url];
  return createHash('sha256').update(JSON.stringify(what)).digest('hex');
}

/** Eras found by probing, per server configuration. */
export class EraMemory {
  private readonly eras = new Map<string, PriorDiscovery>();

  /** What `server` spoke last time it was probed, if it was. */
  recall(server: McpServerConfig): PriorDiscovery | undefined {
    return this.eras.get(identity(server));
  }

  /** Remembers what `server` spoke. */
  remember(server: McpServerConfig, era: PriorDiscovery): void {
    this.eras.set(identity(server), era);
  }

  /** Forgets `server`'s era: the next connection probes again. */
  forget(server: McpServerConfig): void {
    this.eras.delete(identity(server));
  }
}

/** The worker process's memory of eras, shared by its connection pools. */
export const processEraMemory = new EraMemory();
