import { conversationOptions } from '../../src/client/conversation-options';
import { DEFAULT_COMPACTION_THRESHOLD } from '../../src/context/context-guard';
import { contextWindowOf } from '../../src/models/context-windows';

/**
 * Replay safety (issue 13 item 4): the numbers the context guard decides by are pinned in the
 * workflow's input when a conversation starts, so a later change of the tables (a model's context
 * window, the default threshold) cannot change what a running conversation's replay decides.
 */
describe('conversationOptions pins the tables the workflow decides by', () => {
  it('fills the context window of the model and the compaction threshold at start', () => {
    const options = conversationOptions({ model: 'claude-sonnet-5' });
    expect(options.contextWindow).toBe(contextWindowOf('claude-sonnet-5'));
    expect(options.compactionThreshold).toBe(DEFAULT_COMPACTION_THRESHOLD);
  });

  it('keeps the values a caller chose', () => {
    const options = conversationOptions({ model: 'claude-sonnet-4-6', contextWindow: 1000, compactionThreshold: 0.5 });
    expect(options).toMatchObject({ contextWindow: 1000, compactionThreshold: 0.5 });
  });

  it('still refuses values the loop cannot work with', () => {
    expect(() => conversationOptions({ contextWindow: 0 })).toThrow('contextWindow must be a positive integer');
    expect(() => conversationOptions({ compactionThreshold: 1.5 })).toThrow('compactionThreshold must be in (0, 1]');
  });
});

describe('conversationOptions and thinking', () => {
  test('no thinking: nothing set, the default maxTokens', () => {
    const options = conversationOptions({});
    expect(options).not.toHaveProperty('thinking');
    expect(options.maxTokens).toBe(1024);
    // `--thinking off` parses to null: the same as unset.
    expect(conversationOptions({ thinking: null as never })).not.toHaveProperty('thinking');
  });

  test('a budget without maxTokens gets the default answer room on top; adaptive gets 16,000', () => {
    expect(conversationOptions({ thinking: { type: 'enabled', budgetTokens: 8000 } })).toMatchObject({ thinking: { type: 'enabled', budgetTokens: 8000 }, maxTokens: 9024 });
    expect(conversationOptions({ thinking: { type: 'adaptive', effort: 'high' } })).toMatchObject({ thinking: { type: 'adaptive', effort: 'high' }, maxTokens: 16_000 });
    expect(conversationOptions({ thinking: { type: 'adaptive' }, maxTokens: 2000 }).maxTokens).toBe(2000);
  });

  test('a budget the API would refuse is refused with why', () => {
    expect(() => conversationOptions({ thinking: { type: 'enabled', budgetTokens: 4096 }, maxTokens: 4096 })).toThrow(
      'the thinking budget (4096 tokens) must be less than maxTokens (4096): thinking counts toward max_tokens (raise --max-tokens)',
    );
    expect(() => conversationOptions({ thinking: { type: 'enabled', budgetTokens: 512 } })).toThrow('the thinking budget must be an integer of at least 1024 tokens, got 512');
    expect(() => conversationOptions({ thinking: { type: 'adaptive', effort: 'huge' } as never })).toThrow(/invalid thinking/);
  });
});
