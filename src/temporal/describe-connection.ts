import type { ClientConfigTLS, ConfigDataSource } from '@temporalio/envconfig';

/** How the connection is secured: no TLS, TLS that authenticates the server, or mutual TLS. */
export type TlsMode = 'plaintext' | 'TLS' | 'mTLS';

/** What the start-up line says about a connection; flags and paths only, never key material. */
export interface ConnectionSummary {
  address: string;
  namespace: string;
  tlsMode: TlsMode;
  /** Whether an API key is sent (its value is never shown). */
  apiKey: boolean;
  /** The TLS settings as configured: paths are shown, inline data only as "inline". */
  tlsFiles?: ClientConfigTLS;
  /** Where the settings came from: "environment", a profile and file, "defaults". */
  origin: string;
}

function source(label: string, data: ConfigDataSource | undefined): string[] {
  if (data === undefined) return [];
  return [`${label} ${'path' in data ? data.path : '(inline)'}`];
}

/**
 * One line for start-up output, e.g.
 * `localhost:7233, namespace "default", mTLS (CA /certs/ca.pem, client cert /certs/client.pem), from environment`.
 * Built from flags and paths so that no secret (API key, key contents) can reach a log.
 */
export function describeConnection(summary: ConnectionSummary): string {
  const files = summary.tlsMode === 'plaintext' || !summary.tlsFiles
    ? []
    : [
        ...source('CA', summary.tlsFiles.serverCACert),
        ...source('client cert', summary.tlsFiles.clientCert),
        ...(summary.tlsFiles.serverName !== undefined ? [`server name ${summary.tlsFiles.serverName}`] : []),
      ];
  const security = `${summary.tlsMode}${files.length > 0 ? ` (${files.join(', ')})` : ''}${summary.apiKey ? ' with API key' : ''}`;
  return `${summary.address}, namespace "${summary.namespace}", ${security}, from ${summary.origin}`;
}
