import type { Client } from '@temporalio/client';
import { TranscriptReader } from '../../src/activities/transcript-reader';
import { digestOf } from '../../src/conversation/digest';
import type { MessageParam, TranscriptRef } from '../../src/conversation/types';

/**
 * Conversations as their workflows would answer the `messagesSlice` query, counted per call: the
 * cache's only observable effect is how many queries a read costs.
 */
class Conversations {
  readonly transcripts = new Map<string, MessageParam[]>();
  queries = 0;

  add(id: string, messageCount: number, textBytes: number): TranscriptRef {
    const messages: MessageParam[] = Array.from({ length: messageCount }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `${id} ${i} ${'x'.repeat(textBytes)}`,
    }));
    this.transcripts.set(id, messages);
    return { workflowId: id, runId: `${id}-run`, messageCount, digest: digestOf(messages) };
  }

  client(): Client {
    const handle = (id: string) => ({
      query: (_query: unknown, from: number, to: number): Promise<MessageParam[]> => {
        this.queries += 1;
        return Promise.resolve((this.transcripts.get(id) ?? []).slice(from, to));
      },
    });
    return { workflow: { getHandle: handle } } as unknown as Client;
  }
}

describe('TranscriptReader cache', () => {
  it('is bounded in bytes: the least recently used transcript is read again, the others are not', async () => {
    const conversations = new Conversations();
    // Three transcripts of ~40 KB each; the cache holds ~100 KB, so two of them.
    const refs = ['a', 'b', 'c'].map((id) => conversations.add(id, 4, 10_000));
    const reader = new TranscriptReader(conversations.client(), { maxCachedBytes: 100_000 });
    for (const ref of refs) expect(await reader.messages(ref)).toEqual(conversations.transcripts.get(ref.workflowId));

    const before = conversations.queries;
    await reader.messages(refs[2]!); // c: held
    await reader.messages(refs[1]!); // b: held
    expect(conversations.queries).toBe(before);
    await reader.messages(refs[0]!); // a: dropped for c, read again
    expect(conversations.queries).toBe(before + 1);
    expect(reader.cacheSize().bytes).toBeLessThanOrEqual(100_000);
    expect(reader.cacheSize().conversations).toBe(2);
  });

  it('reads a transcript larger than the whole bound for its call without keeping it', async () => {
    const conversations = new Conversations();
    const huge = conversations.add('huge', 6, 50_000);
    const reader = new TranscriptReader(conversations.client(), { maxCachedBytes: 100_000 });
    expect(await reader.messages(huge)).toHaveLength(6);
    expect(reader.cacheSize()).toEqual({ bytes: 0, conversations: 0 });
  });

  it('fetches only the messages added since the previous call while a transcript is held', async () => {
    const conversations = new Conversations();
    conversations.add('grow', 120, 10);
    const all = conversations.transcripts.get('grow')!;
    const at = (count: number): TranscriptRef => ({ workflowId: 'grow', runId: 'grow-run', messageCount: count, digest: digestOf(all.slice(0, count)) });
    const reader = new TranscriptReader(conversations.client());
    await reader.messages(at(100)); // two pages of 50
    expect(conversations.queries).toBe(2);
    expect(await reader.messages(at(120))).toEqual(all);
    expect(conversations.queries).toBe(3);
  });

  it('makes no query when the call carries the added messages and the worker holds the rest (issue 11)', async () => {
    const conversations = new Conversations();
    conversations.add('carried', 12, 10);
    const all = conversations.transcripts.get('carried')!;
    const at = (count: number): TranscriptRef => ({ workflowId: 'carried', runId: 'carried-run', messageCount: count, digest: digestOf(all.slice(0, count)) });
    const reader = new TranscriptReader(conversations.client());
    expect(await reader.messages(at(1), { from: 0, messages: all.slice(0, 1) })).toEqual(all.slice(0, 1));
    for (let count = 3; count <= 11; count += 2) {
      expect(await reader.messages(at(count), { from: count - 2, messages: all.slice(count - 2, count) })).toEqual(all.slice(0, count));
    }
    expect(conversations.queries).toBe(0);
  });

  it('queries only the part before the added messages on a cache miss', async () => {
    const conversations = new Conversations();
    conversations.add('cold', 100, 10);
    const all = conversations.transcripts.get('cold')!;
    const reader = new TranscriptReader(conversations.client());
    const ref: TranscriptRef = { workflowId: 'cold', runId: 'cold-run', messageCount: 100, digest: digestOf(all) };
    expect(await reader.messages(ref, { from: 98, messages: all.slice(98) })).toEqual(all);
    expect(conversations.queries).toBe(2); // [0, 50) and [50, 98)
  });

  it('falls back to the workflow\'s messages when the carried ones do not match the digest', async () => {
    const conversations = new Conversations();
    conversations.add('odd', 4, 10);
    const all = conversations.transcripts.get('odd')!;
    const reader = new TranscriptReader(conversations.client());
    const ref: TranscriptRef = { workflowId: 'odd', runId: 'odd-run', messageCount: 4, digest: digestOf(all) };
    await reader.messages({ ...ref, messageCount: 2, digest: digestOf(all.slice(0, 2)) });
    const wrong: MessageParam[] = [{ role: 'user', content: 'not what the workflow holds' }, all[3]!];
    expect(await reader.messages(ref, { from: 2, messages: wrong })).toEqual(all);
  });

  it('tells each read apart: a hit when the cache and the added messages sufficed, a miss when it queried (metrics)', async () => {
    const conversations = new Conversations();
    conversations.add('told', 6, 10);
    const all = conversations.transcripts.get('told')!;
    const at = (count: number): TranscriptRef => ({ workflowId: 'told', runId: 'told-run', messageCount: count, digest: digestOf(all.slice(0, count)) });
    const reads: boolean[] = [];
    const reader = new TranscriptReader(conversations.client(), { onRead: (hit) => reads.push(hit) });
    await reader.messages(at(1), { from: 0, messages: all.slice(0, 1) }); // carried: no query
    await reader.messages(at(3)); // queried
    await reader.messages(at(5), { from: 3, messages: all.slice(3, 5) }); // held plus carried
    await new TranscriptReader(conversations.client(), { onRead: (hit) => reads.push(hit) }).messages(at(6), { from: 5, messages: all.slice(5, 6) }); // another worker: queried
    expect(reads).toEqual([true, false, true, false]);
  });
});
