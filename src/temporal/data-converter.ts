import type { DataConverter } from '@temporalio/common';
import { CompressionCodec } from './compression-codec';
import { createExternalStorage } from './payload-store/external-storage';

/**
 * The data converter of every worker and client of this project: JSON payloads, large ones gzipped,
 * and those still 256 KiB or more kept in the external payload store (`src/temporal/payload-store/`)
 * with only a reference in the history, so a conversation's state is never too large to continue
 * as new. Worker and clients must agree, so all of them take it from here.
 */
export const dataConverter: DataConverter = { payloadCodecs: [new CompressionCodec()], externalStorage: createExternalStorage() };
