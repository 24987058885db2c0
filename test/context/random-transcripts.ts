/**
 * Random but reproducible conversation histories, built with the same pure transitions the
 * workflow uses (`withUserText`, `toolResultsMessage`, `withoutToolUses`), so they have exactly the
 * shapes the workflow stores: text turns, multi-tool turns, parallel calls, failed tool calls,
 * image results, thinking blocks, replies cut at max_tokens, turns that failed before Claude
 * answered, and iteration-limit turns that end on a tool-result message the next turn's text joins.
 */
import { toolResultsMessage, withoutToolUses, withUserText, type ToolResultBlock } from '../../src/conversation/transcript';
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';

/** Deterministic pseudo-random numbers in [0, 1) (an LCG), so a failing seed reproduces. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The tools the histories call; every request sends these. */
export const TOOLS = ['get_weather', 'read_file', 'tiny_png', 'add'].map((name) => ({
  name,
  description: `the ${name} tool`,
  input_schema: { type: 'object' as const, properties: {} },
}));

const CITIES = ['北京', '上海', '广州', 'Paris'];

/** Builds one history; `turns` complete turns, then the current turn (the history ends on a user message). */
export function randomTranscript(seed: number, turns: number): MessageParam[] {
  const next = randomSource(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  let ids = 0;
  let messages: MessageParam[] = [];
  const push = (message: MessageParam): void => {
    messages = [...messages, message];
  };

  const toolUse = (): ContentBlockParam => {
    const name = pick(TOOLS).name;
    return { type: 'tool_use', id: `toolu_${seed}_${++ids}`, name, input: { city: pick(CITIES) } };
  };
  const result = (id: string): ToolResultBlock => {
    const size = next();
    const isError = next() < 0.15;
    if (size < 0.15) {
      return { type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: 'a picture:' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] };
    }
    const text = size < 0.55 ? `${pick(CITIES)}今天晴，25°C` : `${'long tool output '.repeat(10 + Math.floor(next() * 40))}end`;
    return { type: 'tool_result', tool_use_id: id, content: size < 0.75 ? text : [{ type: 'text', text }], ...(isError ? { is_error: true } : {}) };
  };
  /** An assistant reply that calls 1–3 tools, maybe with text and thinking before. */
  const callingReply = (): ContentBlockParam[] => {
    const blocks: ContentBlockParam[] = [];
    if (next() < 0.2) blocks.push({ type: 'thinking', thinking: 'let me check', signature: 'sig' });
    if (next() < 0.6) blocks.push({ type: 'text', text: '我需要查一下。' });
    const calls = 1 + Math.floor(next() * 3);
    for (let i = 0; i < calls; i++) blocks.push(toolUse());
    return blocks;
  };
  const toolRound = (): void => {
    const reply = callingReply();
    push({ role: 'assistant', content: reply });
    push(toolResultsMessage(reply.flatMap((b) => (b.type === 'tool_use' ? [result(b.id)] : []))));
  };
  const finalReply = (): void => {
    if (next() < 0.15) {
      // Cut at max_tokens with a tool_use in it: the workflow drops the unexecuted call.
      push({ role: 'assistant', content: withoutToolUses(callingReply(), 'the reply was cut at max_tokens') });
    } else {
      push({ role: 'assistant', content: [{ type: 'text', text: `回答 ${messages.length}` }] });
    }
  };

  for (let turn = 0; turn <= turns; turn++) {
    messages = withUserText(messages, `问题 ${turn}: ${pick(CITIES)}呢?`);
    if (turn === turns) break;
    const kind = next();
    if (kind < 0.3) finalReply();
    else if (kind < 0.7) {
      const rounds = 1 + Math.floor(next() * 3);
      for (let r = 0; r < rounds; r++) toolRound();
      finalReply();
    } else if (kind < 0.85) {
      // Iteration limit: the last reply's calls get "not run" results and the turn ends there.
      const rounds = Math.floor(next() * 2);
      for (let r = 0; r < rounds; r++) toolRound();
      const reply = callingReply();
      push({ role: 'assistant', content: reply });
      push(toolResultsMessage(reply.flatMap((b) => (b.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: b.id, content: '[host] Not run: limit reached.', is_error: true }] : []))));
    }
    // else: the Claude call failed; the turn left only its user message, the next text joins it.
  }
  // The current turn is sometimes in the middle of its tool loop.
  if (next() < 0.4) toolRound();
  return messages;
}

/** Freezes a value and everything in it, so any mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
