import { Client } from '@temporalio/client';
import type { Settings } from '../config/settings';
import { connectClientConnection } from '../temporal/connect-client';
import { dataConverter } from '../temporal/data-converter';
import { environmentKeyring } from '../temporal/environment-encryption';
import { payloadStoreSetting } from '../temporal/payload-store/payload-store-setting';
import { tracingClientInterceptors } from '../telemetry/client-tracing';

/** A client connection and the settings it was made from. */
export interface ClientContext {
  client: Client;
  settings: Settings;
  close(): Promise<void>;
}

/** The address the CLI talks to: TEMPORAL_ADDRESS or the temporal.toml profile, else the local dev server `npm start` runs. */
export function clientAddress(settings: Settings): string {
  return settings.temporal.address;
}

/**
 * Connects to Temporal with the configured TLS and credentials (see connection-config.ts); when it
 * cannot, one line that says where, and why (refused, TLS, credentials) with what to set.
 */
export async function connectClient(settings: Settings): Promise<ClientContext> {
  // A malformed MCP_HOST_ENCRYPTION_* is one clear error now, not a failure of every payload.
  environmentKeyring();
  // So is a malformed MCP_HOST_PAYLOAD_STORE / MCP_HOST_PAYLOAD_S3_ENDPOINT.
  payloadStoreSetting();
  const connection = await connectClientConnection(settings.temporal, 5000);
  // With tracing installed (src/telemetry/tracing.ts), starts, signals and updates carry their trace to the workflow.
  const interceptors = tracingClientInterceptors();
  return {
    client: new Client({ connection, namespace: settings.namespace, dataConverter, ...(interceptors !== undefined ? { interceptors } : {}) }),
    settings,
    close: () => connection.close(),
  };
}
