import { MAX_USER_MESSAGE_BYTES, userMessageProblem } from '../../src/conversation/user-message-problem';

describe('userMessageProblem', () => {
  it('refuses empty and non-text turns', () => {
    expect(userMessageProblem('')).toBe('the message is empty');
    expect(userMessageProblem('  \n ')).toBe('the message is empty');
    expect(userMessageProblem(42)).toBe('the message is empty');
  });

  it('takes a turn up to the limit, counted in UTF-8 bytes', () => {
    expect(userMessageProblem('北京今天天气怎么样')).toBeUndefined();
    expect(userMessageProblem('a'.repeat(MAX_USER_MESSAGE_BYTES))).toBeUndefined();
    // 3 bytes per CJK character: a third of the limit in characters is the limit in bytes.
    expect(userMessageProblem('北'.repeat(MAX_USER_MESSAGE_BYTES / 2))).toMatch(/^the message is 1\.5 MiB; a turn takes at most 1 MiB/);
    expect(userMessageProblem('😀'.repeat(MAX_USER_MESSAGE_BYTES / 4 + 1))).toMatch(/at most 1 MiB/);
  });

  it('refuses a 3 MB message with one line that says what to do', () => {
    expect(userMessageProblem('x'.repeat(3 * 1024 * 1024))).toBe(
      'the message is 3.0 MiB; a turn takes at most 1 MiB (Temporal refuses payloads over 2 MB): send a shorter message',
    );
  });
});
