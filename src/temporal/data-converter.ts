import type { DataConverter } from '@temporalio/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CompressionCodec } from './compression-codec';
import { EnvironmentEncryptionCodec } from './environment-encryption';
import { createExternalStorage } from './payload-store/external-storage';

/**
 * The SDK loads a failure converter only from a file (`failureConverterPath`), so the compiled
 * module beside this one is looked up: this file's folder when it runs as compiled or from source,
 * `../temporal` or `./temporal` when it runs inside one of the bundled programs (dist/main.js,
 * dist/worker/main.js, dist/client/…). Not found: Temporal's default converter.
 */
function failureConverterOption(): Pick<DataConverter, 'failureConverterPath'> {
  for (const dir of [__dirname, path.join(__dirname, '..', 'temporal'), path.join(__dirname, 'temporal')]) {
    for (const extension of ['.js', '.ts']) {
      const file = path.join(dir, `encrypting-failure-converter${extension}`);
      if (fs.existsSync(file)) return { failureConverterPath: file };
    }
  }
  return {};
}

/**
 * The data converter of every worker and client of this project: JSON payloads, large ones gzipped,
 * then encrypted with AES-256-GCM when `MCP_HOST_ENCRYPTION_KEY` is set (off by default; see
 * docs/encryption.md), and those still 256 KiB or more kept in the external payload store
 * (`src/temporal/payload-store/`, which so holds ciphertext too) with only a reference in the
 * history, so a conversation's state is never too large to continue as new. Worker and clients
 * must agree, so all of them take it from here.
 */
export const dataConverter: DataConverter = {
  // Encoded in this order (compress, then encrypt: ciphertext does not compress), decoded in reverse.
  payloadCodecs: [new CompressionCodec(), new EnvironmentEncryptionCodec()],
  // With encryption on, a failure's message and stack go into a payload too (encrypting-failure-converter.ts).
  ...failureConverterOption(),
  externalStorage: createExternalStorage(),
};
