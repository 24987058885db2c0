import { NativeConnection } from '@temporalio/worker';
import type { TemporalConnectionConfig } from './connection-config';
import { connectionFailure } from './connection-failure';

/**
 * Opens the worker's `NativeConnection` with the same TLS and credentials as the client's; a
 * failure is one line naming the address and the likely cause. Kept apart from the client's
 * connect so that the CLI never loads the worker's native module.
 */
export async function connectNativeConnection(config: TemporalConnectionConfig): Promise<NativeConnection> {
  try {
    return await NativeConnection.connect(config.nativeOptions());
  } catch (err) {
    throw await connectionFailure(config, err);
  }
}
