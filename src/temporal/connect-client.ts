import { Connection } from '@temporalio/client';
import type { TemporalConnectionConfig } from './connection-config';
import { connectionFailure } from './connection-failure';

/**
 * Opens a `@temporalio/client` connection with the configured TLS and credentials; a failure is one
 * line naming the address and the likely cause. `connectTimeoutMs` bounds how long a dead or
 * misconfigured endpoint can keep the caller waiting (grpc-js retries until then).
 */
export async function connectClientConnection(config: TemporalConnectionConfig, connectTimeoutMs: number): Promise<Connection> {
  try {
    return await Connection.connect({ ...config.clientOptions(), connectTimeout: connectTimeoutMs });
  } catch (err) {
    throw await connectionFailure(config, err);
  }
}
