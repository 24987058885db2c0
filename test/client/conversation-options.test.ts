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
