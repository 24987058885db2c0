import os from 'node:os';
import path from 'node:path';
import { ExternalStorage } from '@temporalio/common';
import { LocalFileDriver } from './local-file-driver';

/** Payloads at least this large (after the gzip codec) go to the store: 256 KiB, the SDK's default. */
export const PAYLOAD_STORE_THRESHOLD = 256 * 1024;

/**
 * The directory of the payload store: `MCP_HOST_PAYLOAD_DIR`, else `durable-mcp-host/payloads`
 * under `$XDG_DATA_HOME` (default `~/.local/share`), one place per user that the worker and every
 * CLI or client of this machine find whatever their working directory.
 */
export function payloadStoreDir(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.MCP_HOST_PAYLOAD_DIR;
  if (configured !== undefined && configured !== '') return path.resolve(configured);
  const dataHome = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(dataHome, 'durable-mcp-host', 'payloads');
}

/**
 * Temporal's external storage for this project's data converter: payloads of
 * {@link PAYLOAD_STORE_THRESHOLD} or more (a conversation's whole state carried through
 * continue-as-new, a big tool result, a long transcript answered to a query) are written to the
 * local-file store and replaced in the history by a small reference. For a cluster whose workers
 * and clients run on several machines the directory must be shared by all of them (README,
 * "Large payloads").
 */
export function createExternalStorage(dir: string = payloadStoreDir()): ExternalStorage {
  return new ExternalStorage({ drivers: [new LocalFileDriver(dir)], payloadSizeThreshold: PAYLOAD_STORE_THRESHOLD });
}
