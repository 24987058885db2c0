import { contextWindowOf, FALLBACK_CONTEXT_WINDOW } from '../../src/models/context-windows';

describe('contextWindowOf', () => {
  test('200K for the Claude 4 family (and anything unknown), 1M for the Claude 5 family; configurable', () => {
    expect(FALLBACK_CONTEXT_WINDOW).toBe(200_000);
    expect(contextWindowOf('claude-sonnet-4-6')).toBe(200_000);
    expect(contextWindowOf('claude-haiku-4-5-20251001')).toBe(200_000);
    expect(contextWindowOf('claude-opus-5')).toBe(1_000_000);
    expect(contextWindowOf('claude-sonnet-5-5-20260901')).toBe(1_000_000);
    expect(contextWindowOf('some-other-model')).toBe(200_000);
    expect(contextWindowOf('claude-sonnet-4-6', { 'claude-sonnet-4-6': 1_000_000 })).toBe(1_000_000);
    // A minor version is another model: a row for claude-sonnet-4 does not name claude-sonnet-4-6.
    expect(contextWindowOf('claude-sonnet-4-6', { 'claude-sonnet-4': 1_000_000 })).toBe(200_000);
    expect(contextWindowOf('claude-sonnet-4-20250514', { 'claude-sonnet-4': 1_000_000 })).toBe(1_000_000);
  });
});
