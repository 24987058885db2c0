import type { DataConverter } from '@temporalio/common';
import { CompressionCodec } from './compression-codec';

/**
 * The data converter of every worker and client of this project: JSON payloads, large ones gzipped.
 * Worker and clients must agree, so all of them take it from here.
 */
export const dataConverter: DataConverter = { payloadCodecs: [new CompressionCodec()] };
