/**
 * A payload codec that gzips large payloads, so that a long conversation carried through
 * continue-as-new, or a big tool result, stays under Temporal's 2 MB payload limit. Small payloads
 * (every normal activity input and result) pass unchanged and stay readable in the Web UI.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** The `encoding` metadata of a compressed payload: the whole original payload, gzipped. */
export const GZIP_ENCODING = 'binary/gzip-payload';
/** Payloads at least this large are compressed. */
export const DEFAULT_COMPRESSION_THRESHOLD = 64 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Compresses payloads of `threshold` bytes or more; decodes what it compressed, passes the rest. */
export class CompressionCodec implements PayloadCodec {
  constructor(private readonly threshold: number = DEFAULT_COMPRESSION_THRESHOLD) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(
      payloads.map(async (payload) => {
        if ((payload.data?.length ?? 0) < this.threshold) return payload;
        const original = temporal.api.common.v1.Payload.encode(payload).finish();
        const compressed = await gzip(original, { level: 6 });
        // Random data does not compress: keep it as it was rather than grow it.
        if (compressed.length >= original.length) return payload;
        return { metadata: { encoding: encoder.encode(GZIP_ENCODING) }, data: new Uint8Array(compressed) };
      }),
    );
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(
      payloads.map(async (payload) => {
        const encoding = payload.metadata?.encoding;
        if (!encoding || decoder.decode(encoding) !== GZIP_ENCODING || !payload.data) return payload;
        const original = await gunzip(payload.data);
        return temporal.api.common.v1.Payload.decode(new Uint8Array(original));
      }),
    );
  }
}
