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
