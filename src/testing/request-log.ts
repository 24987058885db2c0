import type { RecordedRequest } from './recorded-request';

/** What a fake keeps of its requests by default: the newest 128 MiB of request bodies. */
export const DEFAULT_MAX_RECORDED_BYTES = 128 * 1024 * 1024;

/**
 * The requests a fake received, newest last, bounded in bytes: past `maxBytes` (the sum of the
 * bodies' sizes), the oldest are dropped and counted, so a fake that serves a long load test does
 * not grow without end. The newest request is always kept, however large.
 */
export class RequestLog {
  /** The requests kept, in order: the array tests read. */
  readonly requests: RecordedRequest[] = [];
  private bytes = 0;
  private droppedCount = 0;

  constructor(private readonly maxBytes: number = DEFAULT_MAX_RECORDED_BYTES) {}

  add(request: RecordedRequest): void {
    this.requests.push(request);
    this.bytes += request.bytes;
    while (this.bytes > this.maxBytes && this.requests.length > 1) {
      const oldest = this.requests.shift();
      this.bytes -= oldest?.bytes ?? 0;
      this.droppedCount++;
    }
  }

  /** Requests received in all, kept or dropped. */
  received(): number {
    return this.requests.length + this.droppedCount;
  }

  /** Requests dropped to stay under the bound. */
  dropped(): number {
    return this.droppedCount;
  }

  /** Bytes of the requests kept. */
  keptBytes(): number {
    return this.bytes;
  }
}
