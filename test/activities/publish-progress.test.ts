import { readStreamDetails, streamDetails, type ClaudeStreamDetails } from '../../src/activities/claude-stream-details';
import { ClaudeStreamPublisher } from '../../src/activities/publish-progress';

function fakeContext(attempt = 1): { heartbeat: jest.Mock; info: { attempt: number }; sent: () => ClaudeStreamDetails[] } {
  const heartbeat = jest.fn();
  return { heartbeat, info: { attempt }, sent: () => (heartbeat.mock.calls as Array<[ClaudeStreamDetails]>).map(([details]) => details) };
}

describe('ClaudeStreamPublisher', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('publishes the first piece at once and coalesces the pieces within the gap into one trailing heartbeat', () => {
    const context = fakeContext();
    const publisher = new ClaudeStreamPublisher(context as never, 100, undefined, 0);
    publisher.append('Hel');
    expect(context.sent()).toEqual([{ stream: 'claude-text', attempt: 1, length: 3, from: 0, text: 'Hel' }]);
    publisher.append('lo, ');
    publisher.append('world');
    expect(context.heartbeat).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(100);
    expect(context.sent()).toHaveLength(2);
    expect(context.sent()[1]).toMatchObject({ length: 12, from: 0, text: 'Hello, world' });
    publisher.close();
  });

  test('every heartbeat carries the text so far (a keep-alive never erases it) with the attempt', () => {
    const context = fakeContext(3);
    const publisher = new ClaudeStreamPublisher(context as never, 100, undefined, 0);
    publisher.heartbeat();
    expect(context.sent()[0]).toEqual({ stream: 'claude-text', attempt: 3, length: 0, from: 0, text: '' });
    publisher.append('abc');
    jest.advanceTimersByTime(1000);
    publisher.heartbeat();
    expect(context.sent().at(-1)).toEqual({ stream: 'claude-text', attempt: 3, length: 3, from: 0, text: 'abc' });
  });

  test('the details are bounded: the last window of the answer, with where it starts', () => {
    const context = fakeContext();
    const publisher = new ClaudeStreamPublisher(context as never, 100, 8, 0);
    publisher.append('0123456789abcdef');
    expect(context.sent()[0]).toEqual({ stream: 'claude-text', attempt: 1, length: 16, from: 8, text: '89abcdef' });
  });

  test('nothing is sent in the quiet start: a call over by then sends no heartbeat; a longer one publishes at its end', () => {
    const context = fakeContext();
    const publisher = new ClaudeStreamPublisher(context as never, 100, undefined, 500);
    publisher.append('Hel');
    publisher.append('lo');
    jest.advanceTimersByTime(499);
    expect(context.heartbeat).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(context.sent()).toEqual([{ stream: 'claude-text', attempt: 1, length: 5, from: 0, text: 'Hello' }]);
    publisher.append('!');
    jest.advanceTimersByTime(100);
    expect(context.sent().at(-1)).toMatchObject({ text: 'Hello!' });

    const short = fakeContext();
    const over = new ClaudeStreamPublisher(short as never, 100, undefined, 500);
    over.append('quick answer');
    over.close();
    jest.advanceTimersByTime(1000);
    expect(short.heartbeat).not.toHaveBeenCalled();
  });

  test('close() drops a pending heartbeat: nothing is sent after the call ended', () => {
    const context = fakeContext();
    const publisher = new ClaudeStreamPublisher(context as never, 100, undefined, 0);
    publisher.append('a');
    publisher.append('b');
    publisher.close();
    jest.advanceTimersByTime(1000);
    expect(context.heartbeat).toHaveBeenCalledTimes(1);
  });
});

describe('stream details', () => {
  test('a window never starts inside a surrogate pair', () => {
    const text = `ab${'😀'.repeat(3)}`; // each emoji is two UTF-16 units
    const details = streamDetails(text, 1, 3);
    expect(details.text).toBe('😀');
    expect(details.from + details.text.length).toBe(details.length);
  });

  test('readStreamDetails takes only the stream shape, consistent', () => {
    expect(readStreamDetails(streamDetails('hi', 2))).toEqual({ stream: 'claude-text', attempt: 2, length: 2, from: 0, text: 'hi' });
    expect(readStreamDetails({ toolFailures: 1 })).toBeUndefined();
    expect(readStreamDetails(undefined)).toBeUndefined();
    expect(readStreamDetails({ stream: 'claude-text', attempt: 1, length: 5, from: 0, text: 'hi' })).toBeUndefined();
  });
});

describe('ClaudeStreamPublisher and thinking (issue 29)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('thinking rides in a window of its own beside the answer; none, no field', () => {
    const context = fakeContext();
    const publisher = new ClaudeStreamPublisher(context as never, 100, 8, 0);
    publisher.appendThinking('Let me think');
    expect(context.sent()[0]).toEqual({ stream: 'claude-text', attempt: 1, length: 0, from: 0, text: '', thinking: { length: 12, from: 4, text: 'me think' } });
    publisher.append('Sunny');
    jest.advanceTimersByTime(100);
    expect(context.sent().at(-1)).toEqual({ stream: 'claude-text', attempt: 1, length: 5, from: 0, text: 'Sunny', thinking: { length: 12, from: 4, text: 'me think' } });
    publisher.close();
    expect(readStreamDetails(context.sent().at(-1))).toEqual(context.sent().at(-1));
    expect(readStreamDetails({ stream: 'claude-text', attempt: 1, length: 0, from: 0, text: '', thinking: { length: 9, from: 0, text: 'x' } })).toEqual({ stream: 'claude-text', attempt: 1, length: 0, from: 0, text: '' });
  });
});
