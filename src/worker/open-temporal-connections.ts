/**
 * The worker's two connections to Temporal, made from the same settings: the native connection
 * that polls, and a client connection the activities use to query workflows for transcripts.
 */
import { Client, Connection } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { Settings } from '../config/settings';
import { connectNativeConnection } from '../temporal/connect-native';
import { dataConverter } from '../temporal/data-converter';
import { environmentKeyring } from '../temporal/environment-encryption';
import { payloadStoreSetting } from '../temporal/payload-store/payload-store-setting';

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
  // A malformed MCP_HOST_ENCRYPTION_* is one clear error at start, not a failed task per payload.
  environmentKeyring();
  // So is a malformed MCP_HOST_PAYLOAD_STORE / MCP_HOST_PAYLOAD_S3_ENDPOINT.
  payloadStoreSetting();
  // The same TLS and credentials for both (settings.temporal); the address may be the dev server's.
  const temporal =
    settings.temporalAddress !== undefined ? settings.temporal.withAddress(settings.temporalAddress, 'the worker\'s options') : settings.temporal;
  const address = temporal.address;
  // The native connection proves the server answers with these settings (it fails within
  // milliseconds, naming the cause). The client's connects on the first query, after the worker
  // polls: its first call costs ~0.1–0.2 s of start-up (grpc-js, protobuf set-up) a failover need not wait for.
  const connection = await connectNativeConnection(temporal);
  const clientConnection = Connection.lazy(temporal.clientOptions());
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
