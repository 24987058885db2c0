import type { FakeMessageBody } from './message-body';

/** One server-sent event of a streamed `POST /v1/messages` answer: its name and its JSON data. */
export interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Text and JSON deltas are cut into pieces of this many characters, as a model writes them. */
const DEFAULT_CHUNK_CHARS = 24;

/** `text` in pieces of at most `size` characters (code points, so no surrogate pair is split). */
function pieces(text: string, size: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** `text` one word each: a word with the whitespace after it (leading whitespace goes with the first). */
function words(text: string): string[] {
  return text.match(/^\s*\S+\s*|\S+\s*|^\s+$/g) ?? [];
}

type Block = FakeMessageBody['content'][number];

/** The start event's block and the deltas that complete it, like the real API streams each block type. */
function blockEvents(block: Block, index: number, chunkChars: number, byWords: boolean): StreamEvent[] {
  const prose = (text: string): string[] => (byWords ? words(text) : pieces(text, chunkChars));
  const delta = (d: Record<string, unknown>): StreamEvent => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } });
  const start = (contentBlock: Record<string, unknown>): StreamEvent => ({
    event: 'content_block_start',
    data: { type: 'content_block_start', index, content_block: contentBlock },
  });
  switch (block.type) {
    case 'text': {
      // Citations arrive as their own deltas; the start block has none yet.
      const events = [start({ type: 'text', text: '', citations: null }), ...prose(block.text).map((text) => delta({ type: 'text_delta', text }))];
      for (const citation of block.citations ?? []) events.push(delta({ type: 'citations_delta', citation }));
      return events;
    }
    case 'tool_use':
    case 'server_tool_use': {
      // Both stream their input as JSON deltas (the SDK's MessageStream accumulates both).
      const json = JSON.stringify(block.input ?? {});
      return [start({ ...block, input: {} }), ...pieces(json, chunkChars).map((partial) => delta({ type: 'input_json_delta', partial_json: partial }))];
    }
    case 'thinking':
      return [
        start({ type: 'thinking', thinking: '', signature: '' }),
        ...prose(block.thinking).map((thinking) => delta({ type: 'thinking_delta', thinking })),
        delta({ type: 'signature_delta', signature: block.signature }),
      ];
    case 'compaction':
      // The summary arrives as one delta, after a start that carries the signature.
      return [
        start({ type: 'compaction', content: null, encrypted_content: null, ...(block.signature !== undefined ? { signature: block.signature } : {}) }),
        delta({ type: 'compaction_delta', content: block.content, encrypted_content: block.encrypted_content ?? null }),
      ];
    default:
      // Other blocks (redacted thinking, server tool results, …) arrive whole in their start event.
      return [start({ ...block })];
  }
}

/**
 * The events the real API streams for a message (`stream: true`): `message_start` with the message
 * shell and input usage, each content block as `content_block_start`, its deltas (`text_delta`,
 * `input_json_delta` for tool_use and server_tool_use, `thinking_delta` and `signature_delta`) and `content_block_stop`,
 * a `ping`, then `message_delta` with the stop reason (and the container, when there is one) and the
 * final usage, and `message_stop`.
 * Accumulated (as the SDK's `MessageStream` does) they give back `body` exactly.
 */
export function messageEvents(body: FakeMessageBody, chunkChars: number = DEFAULT_CHUNK_CHARS, byWords = false): StreamEvent[] {
  const { content, stop_reason: stopReason, stop_sequence: stopSequence, usage, context_management: contextManagement, container, ...shell } = body;
  const events: StreamEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { ...shell, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  content.forEach((block, index) => {
    events.push(...blockEvents(block, index, Math.max(1, chunkChars), byWords));
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push(
    // The container comes with the stop reason, as the real API streams it (the SDK copies it over).
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: stopSequence, ...(container !== undefined ? { container } : {}) },
        usage,
        ...(contextManagement !== undefined ? { context_management: contextManagement } : {}),
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return events;
}

/** The `error` event the real API sends when a stream fails after it began (e.g. `overloaded_error`). */
export function errorEvent(errorType: string, message: string): StreamEvent {
  return { event: 'error', data: { type: 'error', error: { type: errorType, message } } };
}

/** One event on the wire: `event: NAME`, `data: JSON`, a blank line. */
export function formatEvent(event: StreamEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
