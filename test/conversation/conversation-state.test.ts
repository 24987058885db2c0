import {
  addUserText,
  appendMessages,
  continuedState,
  enqueueTurn,
  newConversationState,
  recordModelCall,
  recordTurn,
  statusOf,
  type CarriedState,
  type ConversationState,
} from '../../src/conversation/conversation-state';
import { digestOf, EMPTY_DIGEST } from '../../src/conversation/digest';
import type { ConversationOptions, TurnResult } from '../../src/conversation/types';

const OPTIONS: ConversationOptions = {
  model: 'claude-sonnet-4-6',
  maxTokens: 1024,
  maxIterations: 10,
  toolHeartbeatTimeoutMs: 30_000,
  modelHeartbeatTimeoutMs: 30_000,
};

function turnResult(turnId: number, overrides: Partial<TurnResult> = {}): TurnResult {
  return { turnId, status: 'completed', text: 'ok', stopReason: 'end_turn', modelCalls: 1, toolCalls: 0, ...overrides };
}

describe('conversation state', () => {
  let state: ConversationState;
  beforeEach(() => {
    state = newConversationState(OPTIONS);
  });

  test('a new conversation is empty and idle', () => {
    expect(state).toMatchObject({ options: OPTIONS, messages: [], digest: EMPTY_DIGEST, catalog: null, pending: [], nextTurnId: 1 });
    expect(statusOf(state, false)).toEqual({
      state: 'idle',
      turnsCompleted: 0,
      currentTurn: null,
      pendingTurns: 0,
      modelCalls: 0,
      toolCalls: 0,
      toolErrors: 0,
      hostToolErrors: 0,
      toolSearch: 'auto',
      usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      lastStopReason: null,
      lastTurn: null,
      messageCount: 0,
      toolCount: 0,
      pendingApprovals: [],
      pendingInputs: [],
      cost: { usd: 0, priced: true },
      context: { strategy: 'keep_all', summaryCovers: 0, lastPromptTokens: 0, contextWindow: 200_000 },
    });
  });

  test('turns are queued in order with increasing ids', () => {
    expect(enqueueTurn(state, 'one', false)).toBe(1);
    expect(enqueueTurn(state, 'two', true)).toBe(2);
    expect(state.pending).toEqual([
      { turnId: 1, text: 'one', awaited: false },
      { turnId: 2, text: 'two', awaited: true },
    ]);
    expect(statusOf(state, false).pendingTurns).toBe(2);
  });

  test('the digest follows every change of the messages, including a user text joining a trailing user message', () => {
    addUserText(state, 'first');
    expect(state.digest).toBe(digestOf(state.messages));
    appendMessages(state, { role: 'assistant', content: [{ type: 'text', text: 'a' }] }, { role: 'user', content: 'second' });
    expect(state.messages).toHaveLength(3);
    expect(state.digest).toBe(digestOf(state.messages));
    const beforeJoin = state.digest;
    // A turn that failed before Claude answered leaves a trailing user message: the next text joins it.
    addUserText(state, 'third');
    expect(state.messages).toHaveLength(3);
    expect(state.messages[2]).toEqual({ role: 'user', content: [{ type: 'text', text: 'second' }, { type: 'text', text: 'third' }] });
    expect(state.digest).toBe(digestOf(state.messages));
    expect(state.digest).not.toBe(beforeJoin);
  });

  test('model calls add up usage and keep the last stop reason', () => {
    recordModelCall(state, { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 4 }, 'tool_use');
    recordModelCall(state, { input_tokens: 150, output_tokens: 20 }, 'end_turn');
    expect(statusOf(state, false)).toMatchObject({
      modelCalls: 2,
      usage: { inputTokens: 250, outputTokens: 30, cacheCreationInputTokens: 0, cacheReadInputTokens: 4 },
      lastStopReason: 'end_turn',
    });
  });

  test('a finished turn is recorded; only an awaited one waits for its update to collect it', () => {
    state.currentTurn = 1;
    expect(statusOf(state, false).state).toBe('running');
    recordTurn(state, { turnId: 1, text: 'by signal', awaited: false }, turnResult(1));
    expect(state.undelivered).toEqual([]);
    expect(statusOf(state, false)).toMatchObject({ state: 'idle', currentTurn: null, turnsCompleted: 1, lastTurn: turnResult(1) });

    state.currentTurn = 2;
    const failed = turnResult(2, { status: 'failed', text: '', error: 'boom' });
    recordTurn(state, { turnId: 2, text: 'by update', awaited: true }, failed);
    expect(state.undelivered).toEqual([failed]);
    expect(statusOf(state, false)).toMatchObject({ turnsCompleted: 2, lastTurn: failed });
  });

  test('status: ended wins over running; counts messages and catalogue tools', () => {
    addUserText(state, 'hi');
    state.currentTurn = 1;
    state.catalog = {
      digest: 'd',
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      routes: { get_weather: { server: 'weather', name: 'get_weather', idempotent: false, timeoutMs: 60_000 } },
    };
    expect(statusOf(state, true)).toMatchObject({ state: 'ended', messageCount: 1, toolCount: 1 });
  });
});

describe('thinking in the conversation state (issue 29)', () => {
  test('starts as configured, shows in the status in the --thinking form, absent when off', () => {
    expect(newConversationState(OPTIONS).thinking).toBeNull();
    expect(statusOf(newConversationState(OPTIONS), false)).not.toHaveProperty('thinking');
    const state = newConversationState({ ...OPTIONS, maxTokens: 16_000, thinking: { type: 'adaptive', effort: 'high' } });
    expect(state.thinking).toEqual({ type: 'adaptive', effort: 'high' });
    expect(statusOf(state, false).thinking).toBe('adaptive:high');
    state.thinking = { type: 'enabled', budgetTokens: 4096 };
    expect(statusOf(state, false).thinking).toBe('4096');
  });

  test('continue-as-new carries a change; a state carried by a run before thinking existed takes its options\'', () => {
    const changed = newConversationState({ ...OPTIONS, thinking: { type: 'adaptive' } });
    changed.thinking = null;
    expect(continuedState(structuredClone(changed)).thinking).toBeNull();
    changed.thinking = { type: 'enabled', budgetTokens: 2048 };
    expect(continuedState(structuredClone(changed)).thinking).toEqual({ type: 'enabled', budgetTokens: 2048 });
    const before = (state: ConversationState): CarriedState => {
      const carried: Partial<ConversationState> = { ...state };
      delete carried.thinking;
      return carried as CarriedState;
    };
    expect(continuedState(before(newConversationState({ ...OPTIONS, thinking: { type: 'adaptive' } }))).thinking).toEqual({ type: 'adaptive' });
    expect(continuedState(before(newConversationState(OPTIONS))).thinking).toBeNull();
  });
});
