import { conversationOptions } from '../../src/client/conversation-options';
import { startMetadata } from '../../src/client/start-metadata';

describe('a conversation start as the Web UI shows it', () => {
  test('summary: the first message, one line, cut; details: the message and the settings, the system prompt only counted', () => {
    const options = conversationOptions({ model: 'claude-opus-4-1', system: 'SYSTEM-TEXT', context: { kind: 'last_turns', turns: 3 } });
    const { staticSummary, staticDetails } = startMetadata(`hello\n${'x'.repeat(300)}`, options);
    expect(staticSummary).toBe(`hello ${'x'.repeat(93)}…`);
    expect(Array.from(staticSummary)).toHaveLength(100);
    expect(staticDetails).toContain('model: claude-opus-4-1');
    expect(staticDetails).toContain('context: last_turns:3');
    expect(staticDetails).toContain('system prompt: 11 characters');
    expect(staticDetails).not.toContain('SYSTEM-TEXT');
  });
});

describe('startMetadata and thinking (issue 29)', () => {
  test('a conversation with thinking says so in its details; one without says nothing of it', () => {
    const options = { model: 'claude-sonnet-4-6', maxTokens: 16_000, maxIterations: 10, toolHeartbeatTimeoutMs: 3000, modelHeartbeatTimeoutMs: 3000 };
    expect(startMetadata('hi', { ...options, thinking: { type: 'adaptive', effort: 'high' } }).staticDetails).toContain(' · thinking: adaptive:high');
    expect(startMetadata('hi', options).staticDetails).not.toContain('thinking');
  });
});

describe('startMetadata with server tools', () => {
  test('the details name them, in the --server-tools form; without them nothing changes', () => {
    expect(startMetadata('hi', conversationOptions({ serverTools: [{ name: 'web_search', maxUses: 5 }, { name: 'code_execution' }] })).staticDetails).toContain('server tools: web_search:5,code_execution');
    expect(startMetadata('hi', conversationOptions({})).staticDetails).not.toContain('server tools');
  });
});
