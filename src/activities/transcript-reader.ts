/**
 * Reads a conversation's messages from the workflow itself, so that no activity input carries the
 * conversation (history would grow quadratically). A per-worker cache keeps what it read, so each
 * Claude call fetches only the messages added since the previous one; the rolling digest proves
 * the assembled array is exactly the workflow's. When the call's input carries those added
 * messages (`ClaudeCallInput.added`: only what the previous call did not have, so the history still
 * grows linearly) and this worker holds the rest, no query is made at all; on a miss (another
 * worker, a restart, an evicted entry) the missing part is queried as before.
 */
import type { Client } from '@temporalio/client';
import { digestOf } from '../conversation/digest';
import type { MessageParam, Tool, TranscriptRef } from '../conversation/types';
import type { AddedMessages } from './types';
import type { ContextSummary } from '../context/context-summary';
import { contextSummaryQuery, messagesSliceQuery, toolsQuery } from '../workflows/definitions';
import { HostError } from '../errors/host-error';

interface Cached {
  messages: MessageParam[];
  digest: string;
  /** The messages' size as JSON, what the cache is bounded by. */
  bytes: number;
}

const EMPTY: Cached = { messages: [], digest: digestOf([]), bytes: 0 };

/** Messages per query: with tool results up to the cap (~100k chars), a page stays under the payload limits. */
const PAGE = 50;
/** Tool lists and summaries a worker keeps in memory (each small next to a transcript). */
const MAX_CONVERSATIONS = 256;
/**
 * Transcript bytes (as JSON) a worker keeps in memory by default: the least recently used go first;
 * a transcript larger than the whole bound is read for its call and not kept. A miss costs only
 * queries, so the bound trades memory for round trips, never correctness.
 */
export const DEFAULT_TRANSCRIPT_CACHE_BYTES = 256 * 1024 * 1024;

export interface TranscriptReaderOptions {
  /** See DEFAULT_TRANSCRIPT_CACHE_BYTES. */
  maxCachedBytes?: number;
  /** Sees each `messages` read: a hit when the cache (and the call's added messages) sufficed, a miss when it queried (metrics). */
  onRead?: (hit: boolean) => void;
}

/** A worker-wide reader and cache of transcripts and tool lists. */
export class TranscriptReader {
  private readonly transcripts = new Map<string, Cached>();
  private readonly toolLists = new Map<string, Tool[]>();
  private readonly summaries = new Map<string, ContextSummary>();
  private readonly maxCachedBytes: number;
  private readonly onRead: ((hit: boolean) => void) | undefined;
  private cachedBytesTotal = 0;

  constructor(
    private readonly client: Client,
    options: TranscriptReaderOptions = {},
  ) {
    this.maxCachedBytes = options.maxCachedBytes ?? DEFAULT_TRANSCRIPT_CACHE_BYTES;
    this.onRead = options.onRead;
  }

  /** Bytes of transcripts held now, and how many conversations they belong to. */
  cacheSize(): { bytes: number; conversations: number } {
    return { bytes: this.cachedBytesTotal, conversations: this.transcripts.size };
  }

  /**
   * messages[0, ref.messageCount) of the referenced run, verified against ref.digest. `added`, when
   * the call carries it, is messages[added.from, ref.messageCount): used instead of a query where
   * the cache reaches added.from.
   */
  async messages(ref: TranscriptRef, added?: AddedMessages): Promise<MessageParam[]> {
    // Keyed by workflow id, not run: a run that continued as new starts with the same messages.
    const key = ref.workflowId;
    const cached = this.transcripts.get(key);
    let current = cached && cached.messages.length <= ref.messageCount ? cached : EMPTY;
    // `extend` returns what it was given when it needed no query.
    let queried = false;
    const extended = async (from: Cached, upTo?: number): Promise<Cached> => {
      const result = await this.extend(ref, from, upTo);
      if (result !== from) queried = true;
      return result;
    };
    if (added && added.from + added.messages.length === ref.messageCount && added.from <= ref.messageCount) {
      // Only the part before the added messages that the cache lacks is queried (nothing, on a hit).
      current = await extended(current, added.from);
      current = appended(current, added.messages.slice(current.messages.length - added.from));
    }
    current = await extended(current);
    if (current.digest !== ref.digest) {
      // The cache may hold a message that was later extended (a user turn joining a trailing user message).
      current = await extended(EMPTY);
    }
    this.onRead?.(!queried);
    if (current.digest !== ref.digest) {
      throw new HostError(
        `transcript of ${key} does not match its digest (${current.digest} ≠ ${ref.digest})`,
        'host.transcript_mismatch',
        false,
      );
    }
    this.remember(key, current);
    return current.messages;
  }

  /** The Claude tool list of the catalogue with this digest. */
  async tools(ref: TranscriptRef, catalogDigest: string): Promise<Tool[]> {
    if (catalogDigest === '') return [];
    const cached = this.toolLists.get(catalogDigest);
    if (cached) return cached;
    const answer = await this.client.workflow.getHandle(ref.workflowId, ref.runId).query(toolsQuery);
    if (answer.digest !== catalogDigest) {
      throw new HostError(`tool catalogue changed under the call (${answer.digest} ≠ ${catalogDigest})`, 'host.catalog_mismatch', true);
    }
    if (this.toolLists.size >= MAX_CONVERSATIONS) this.toolLists.clear();
    this.toolLists.set(catalogDigest, answer.tools);
    return answer.tools;
  }

  /** The workflow's context summary, which must cover `covers` messages (0: no summary wanted). */
  async summary(ref: TranscriptRef, covers: number): Promise<ContextSummary | undefined> {
    if (covers === 0) return undefined;
    const key = `${ref.workflowId}#${covers}`;
    const cached = this.summaries.get(key);
    if (cached) return cached;
    const summary = await this.client.workflow.getHandle(ref.workflowId, ref.runId).query(contextSummaryQuery);
    if (summary?.coveredMessages !== covers) {
      throw new HostError(`context summary changed under the call (${String(summary?.coveredMessages)} ≠ ${covers})`, 'host.summary_mismatch', true);
    }
    if (this.summaries.size >= MAX_CONVERSATIONS) this.summaries.clear();
    this.summaries.set(key, summary);
    return summary;
  }

  /** `from` extended by queries up to `upTo` messages (default: all the ref has). */
  private async extend(ref: TranscriptRef, from: Cached, upTo: number = ref.messageCount): Promise<Cached> {
    if (from.messages.length >= upTo) return from;
    const handle = this.client.workflow.getHandle(ref.workflowId, ref.runId);
    const messages = [...from.messages];
    let digest = from.digest;
    let bytes = from.bytes;
    while (messages.length < upTo) {
      const to = Math.min(upTo, messages.length + PAGE);
        const page = await handle.query(messagesSliceQuery, messages.length, to);
      if (page.length !== to - messages.length) {
        throw new HostError(`the workflow returned ${page.length} messages for [${messages.length}, ${to})`, 'host.transcript_short', true);
      }
      digest = digestOf(page, digest);
      bytes += Buffer.byteLength(JSON.stringify(page));
      messages.push(...page);
    }
    return { messages, digest, bytes };
  }

  private remember(key: string, value: Cached): void {
    if (this.transcripts.get(key) === value) {
      // A hit: only its place in the least-recently-used order changes.
      this.transcripts.delete(key);
      this.transcripts.set(key, value);
      return;
    }
    this.forget(key);
    if (value.bytes > this.maxCachedBytes) return;
    this.transcripts.set(key, value);
    this.cachedBytesTotal += value.bytes;
    // Least recently used first: a Map iterates in insertion order, and a hit is re-inserted.
    for (const oldest of this.transcripts.keys()) {
      if (this.cachedBytesTotal <= this.maxCachedBytes) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const held = this.transcripts.get(key);
    if (!held) return;
    this.transcripts.delete(key);
    this.cachedBytesTotal -= held.bytes;
  }
}

/** `from` with `more` appended (a new array: a cached transcript is never changed in place). */
function appended(from: Cached, more: readonly MessageParam[]): Cached {
  if (more.length === 0) return from;
  return {
    messages: [...from.messages, ...more],
    digest: digestOf(more, from.digest),
    bytes: from.bytes + Buffer.byteLength(JSON.stringify(more)),
  };
}
