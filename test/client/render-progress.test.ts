import { ProgressPrinter } from '../../src/client/render-progress';
import type { TurnResult } from '../../src/conversation/types';

const result = (text: string): TurnResult => ({ turnId: 1, status: 'completed', text, stopReason: 'end_turn', modelCalls: 2, toolCalls: 1 });

describe('ProgressPrinter', () => {
  test('tool lines, then the answer as it streams; the answer is not printed again', () => {
    let screen = '';
    const printer = new ProgressPrinter((text) => (screen += text), 'claude> ');
    printer.onEvent({ type: 'claude_text', callId: 'c1', attempt: 1, text: '我来查一下。' });
    printer.onEvent({ type: 'claude_finished', callId: 'c1', durationMs: 300, stopReason: 'tool_use', text: '我来查一下。' });
    printer.onEvent({ type: 'tool_started', callId: 't1', toolUseId: 'toolu_1', server: 'weather', tool: 'get_weather', arguments: { city: '北京' }, at: new Date() });
    printer.onEvent({ type: 'tool_finished', callId: 't1', toolUseId: 'toolu_1', server: 'weather', tool: 'get_weather', durationMs: 420 });
    printer.onEvent({ type: 'claude_text', callId: 'c2', attempt: 1, text: '北京今天晴，' });
    printer.onEvent({ type: 'claude_text', callId: 'c2', attempt: 1, text: '25°C。' });
    printer.onEvent({ type: 'claude_finished', callId: 'c2', durationMs: 900, stopReason: 'end_turn', text: '北京今天晴，25°C。' });
    expect(printer.finishTurn(result('北京今天晴，25°C。'))).toBe(true);
    expect(screen).toBe(
      ['claude> 我来查一下。', '  → get_weather {"city":"北京"} · weather', '  ✓ get_weather 0.4 s', 'claude> 北京今天晴，25°C。', ''].join('\n'),
    );
  });

  test('a failed tool says why; an answer not all seen is printed by the caller', () => {
    let screen = '';
    const printer = new ProgressPrinter((text) => (screen += text));
    printer.onEvent({ type: 'tool_finished', callId: 't1', toolUseId: 'toolu_1', server: 'lab', tool: 'flaky', durationMs: 12_400, error: 'timed out\nafter 10 s' });
    printer.onEvent({ type: 'claude_text', callId: 'c1', attempt: 1, text: 'end only', skipped: 50 });
    printer.onEvent({ type: 'claude_finished', callId: 'c1', durationMs: 1, text: 'x'.repeat(50) + 'end only' });
    expect(screen).toBe('  ✗ flaky 12 s: timed out after 10 s\n…end only\n');
    expect(printer.finishTurn(result('x'.repeat(50) + 'end only'))).toBe(false);
  });
});

describe('ProgressPrinter and thinking (issue 29)', () => {
  test('thinking shows before the answer on a line of its own, dimmed on a terminal; the answer is still recognised whole', () => {
    let screen = '';
    const printer = new ProgressPrinter((text) => (screen += text), 'claude> ', { dim: true });
    printer.onEvent({ type: 'claude_thinking', callId: 'c1', attempt: 1, text: 'Beijing: ' });
    printer.onEvent({ type: 'claude_thinking', callId: 'c1', attempt: 1, text: 'call the tool.' });
    printer.onEvent({ type: 'claude_finished', callId: 'c1', durationMs: 300, stopReason: 'tool_use', text: '', thinking: 'Beijing: call the tool.' });
    printer.onEvent({ type: 'tool_started', callId: 't1', toolUseId: 'toolu_1', server: 'weather', tool: 'get_weather', arguments: { city: '北京' }, at: new Date() });
    printer.onEvent({ type: 'claude_thinking', callId: 'c2', attempt: 1, text: 'Sunny.' });
    printer.onEvent({ type: 'claude_text', callId: 'c2', attempt: 1, text: '北京今天晴。' });
    printer.onEvent({ type: 'claude_finished', callId: 'c2', durationMs: 900, stopReason: 'end_turn', text: '北京今天晴。', thinking: 'Sunny.' });
    expect(printer.finishTurn(result('北京今天晴。'))).toBe(true);
    const dim = (text: string): string => `\u001b[2m${text}\u001b[22m`;
    expect(screen).toBe(
      [
        `${dim('thinking> ')}${dim('Beijing: ')}${dim('call the tool.')}`,
        '  → get_weather {"city":"北京"} · weather',
        `${dim('thinking> ')}${dim('Sunny.')}`,
        'claude> 北京今天晴。',
        '',
      ].join('\n'),
    );
  });

  test('without a terminal the prefix alone marks it; a retried attempt starts it over', () => {
    let screen = '';
    const printer = new ProgressPrinter((text) => (screen += text));
    printer.onEvent({ type: 'claude_thinking', callId: 'c1', attempt: 1, text: 'first' });
    printer.onEvent({ type: 'claude_thinking', callId: 'c1', attempt: 2, text: 'second', restart: true });
    printer.onEvent({ type: 'claude_text', callId: 'c1', attempt: 2, text: 'answer' });
    printer.onEvent({ type: 'claude_finished', callId: 'c1', durationMs: 1, text: 'answer' });
    expect(screen).toBe('thinking> first\nthinking> [again] second\nanswer\n');
    expect(printer.finishTurn(result('answer'))).toBe(true);
  });
});
