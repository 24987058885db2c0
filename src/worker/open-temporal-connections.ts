/**
 * The worker's two connections to Temporal, made from the same settings: the native connection
 * that polls, and a client connection the activities use to query workflows for transcripts.
 */
import { Client, type Connection } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { Settings } from '../config/settings';
import { connectClientConnection } from '../temporal/connect-client';
import { connectNativeConnection } from '../temporal/connect-native';
import { dataConverter } from '../temporal/data-converter';

/** Both connections, and how to close them. */
export interface TemporalConnections {
  client: Client;
  connection: NativeConnection;
  namespace: string;
  address: string;
  close(): Promise<void>;
}

/** Opens both connections; nothing is left open when this rejects. */
export async function openTemporalConnections(settings: Settings): Promise<TemporalConnections> {
  // The same TLS and credentials for both (settings.temporal); the address may be the dev server's.
  const temporal =
    settings.temporalAddress !== undefined ? settings.temporal.withAddress(settings.temporalAddress, 'the worker\'s options') : settings.temporal;
  const address = temporal.address;
  // Native first: it fails within milliseconds, where grpc-js waits out its connect timeout.
  const connection = await connectNativeConnection(temporal);
  let clientConnection: Connection;
  try {
    clientConnection = await connectClientConnection(temporal, 10_000);
  } catch (err) {
    await connection.close();
    throw err;
  }
  return {
    client: new Client({ connection: clientConnection, namespace: settings.namespace, dataConverter }),
    connection,
    namespace: settings.namespace,
    address,
    close: async () => {
      await connection.close();
      await clientConnection.close();
    },
  };
}
