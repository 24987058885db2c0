import type { DataConverter } from '@temporalio/common';
import { CompressionCodec } from './compression-codec';
import { EnvironmentEncryptionCodec } from './environment-encryption';
import { createExternalStorage } from './payload-store/external-storage';

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
  externalStorage: createExternalStorage(),
};
