/**
 * The library under test, loaded from a tree's compiled `dist/` (this repo's by default): the
 * client side must match the worker being measured, since conversation options such as heartbeat
 * timeouts are filled in by the client and travel in the workflow's input.
 */
import { Client, Connection } from '@temporalio/client';
import * as path from 'node:path';
import { REPO_ROOT } from '../../test/support/repo';

/** The `durable-mcp-host` package's main export. */
export type HostLibrary = typeof import('../../src/index');

/** A conversation client of the library under test, with its connection. */
export interface LibraryClient {
  library: HostLibrary;
  conversations: InstanceType<HostLibrary['ConversationClient']>;
  close(): Promise<void>;
}

/** Loads `dist/index.js` of `root` (default this repo: `npm run chaos` builds it first). */
export function loadHostLibrary(root: string = REPO_ROOT): HostLibrary {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(root, 'dist/index.js')) as HostLibrary;
}

/** Connects a `ConversationClient` of the library under test to `address`, on `taskQueue`. */
export async function connectLibraryClient(root: string | undefined, address: string, taskQueue: string): Promise<LibraryClient> {
  const library = loadHostLibrary(root);
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, dataConverter: library.dataConverter });
  return { library, conversations: new library.ConversationClient(client, { taskQueue }), close: () => connection.close() };
}
