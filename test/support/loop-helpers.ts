/**
 * Small helpers shared by the loop scenario suites (`test/loop-*.test.ts`): starting a
 * conversation, reading what the fake received, reading the workflow history as text.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { randomUUID } from 'node:crypto';
import type { RecordedRequest } from '../../src/testing';
import { validateMessagesRequest } from '../../src/offline';
import { conversationOptions, type ConversationOptionsInput } from '../../src/client/conversation-options';
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';
import { dataConverter } from '../../src/temporal/data-converter';
import { conversationWorkflow } from '../../src/workflows';
import type { TestWorker } from './test-worker';

/** A conversation workflow handle. */
export type ConversationHandle = WorkflowHandle<typeof conversationWorkflow>;

/** Starts a conversation on the test worker's task queue. */
export async function startConversation(w: TestWorker, options: ConversationOptionsInput = {}, prefix = 'loop'): Promise<ConversationHandle> {
  return w.client.workflow.start(conversationWorkflow, {
    taskQueue: w.taskQueue,
    workflowId: `${prefix}-${randomUUID()}`,
    // Loop-structure tests read requests as the seed writes them, so prompt caching is off unless a
    // test turns it on; caching has its own tests (test/integration/context-in-the-loop.test.ts).
    args: [{ options: conversationOptions({ promptCache: { enabled: false }, ...options }) }],
  });
}

/** The `messages` of a recorded request body. */
export function messagesOf(request: RecordedRequest | undefined): MessageParam[] {
  if (!request) throw new Error('no such request');
  return (request.body as { messages: MessageParam[] }).messages;
}

/** The content of a message as blocks (a string content becomes one text block). */
export function blocksOf(message: MessageParam | undefined): ContentBlockParam[] {
  if (!message) throw new Error('no such message');
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/**
 * The reasons the fake's validator (which mirrors the real API's) gives for each request, `null`
 * for a valid one. Tests expect all nulls: the fake answers an invalid request with a 400, and
 * this names the request and the reason when that happens.
 */
export function validationErrors(requests: readonly RecordedRequest[]): Array<string | null> {
  return requests.map((request) => validateMessagesRequest(request.body));
}

function isPayload(value: object): value is Payload {
  return 'metadata' in value && 'data' in value && (value as { data: unknown }).data instanceof Uint8Array;
}

/**
 * Every payload decoded by the project's codecs (large ones are gzipped), then every byte array as
 * its UTF-8 text, so the result reads as what the payloads carry.
 */
async function decoded(value: unknown): Promise<unknown> {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return Promise.all(value.map(decoded));
  if (value === null || typeof value !== 'object') return value;
  let current: object = value;
  if (isPayload(current)) {
    // Codecs decode in the reverse of the order they encode in.
    for (const codec of [...(dataConverter.payloadCodecs ?? [])].reverse()) {
      const [payload] = await codec.decode([current]);
      if (payload) current = payload;
    }
  }
  // Own fields only: that is where decoded protobuf messages keep their values.
  const entries = await Promise.all(Object.entries(current).map(async ([key, inner]) => [key, await decoded(inner)] as const));
  return Object.fromEntries(entries);
}

/**
 * The workflow's whole event history as JSON text with every payload decoded. A plain
 * `JSON.stringify` of the history shows payload bytes as numbers (or base64, or gzip), so a secret
 * in a payload would not show up in it: searching that text would prove nothing.
 */
export async function historyText(handle: ConversationHandle): Promise<string> {
  return JSON.stringify(await decoded(await handle.fetchHistory()));
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
