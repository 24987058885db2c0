import { Client, Connection } from '@temporalio/client';
import type { Settings } from '../config/settings';
import { clientConnectionOptions } from '../temporal/client-connection-options';
import { dataConverter } from '../temporal/data-converter';

/** A client connection and the settings it was made from. */
export interface ClientContext {
  client: Client;
  settings: Settings;
  close(): Promise<void>;
}

/** The address the CLI talks to: TEMPORAL_ADDRESS, else the local dev server `npm start` runs. */
export function clientAddress(settings: Settings): string {
  return settings.temporalAddress ?? '127.0.0.1:7233';
}

/** Connects to Temporal, with an error that says where and what to do when it cannot. */
export async function connectClient(settings: Settings): Promise<ClientContext> {
  const address = clientAddress(settings);
  let connection: Connection;
  try {
    connection = await Connection.connect({ ...clientConnectionOptions(address), connectTimeout: 5000 });
  } catch (err) {
    throw new Error(
      `cannot reach Temporal at ${address} (${err instanceof Error ? err.message : String(err)}); ` +
        'start it with `npm start`, or set TEMPORAL_ADDRESS',
    );
  }
  return { client: new Client({ connection, namespace: settings.namespace, dataConverter }), settings, close: () => connection.close() };
}
