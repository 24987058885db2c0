import { decideOnStopReason, type StopDecision } from '../../src/conversation/stop-decision';
import type { StopReason } from '../../src/conversation/types';

describe('decideOnStopReason (S17: stop_reason is the only authority)', () => {
  const cases: Array<[StopReason, StopDecision['kind'], string | undefined]> = [
    ['tool_use', 'run_tools', undefined],
    ['pause_turn', 'continue', undefined],
    ['end_turn', 'end', 'completed'],
    ['max_tokens', 'end', 'max_tokens'],
    ['stop_sequence', 'end', 'stop_sequence'],
    ['refusal', 'end', 'refusal'],
    ['model_context_window_exceeded', 'end', 'context_window_exceeded'],
  ];

  test.each(cases)('%s → %s %s', (stopReason, kind, status) => {
    const decision = decideOnStopReason(stopReason);
    expect(decision.kind).toBe(kind);
    if (decision.kind === 'end') expect(decision.status).toBe(status);
  });

  test('endings that need explaining say why; a normal end_turn does not', () => {
    for (const reason of ['max_tokens', 'refusal', 'model_context_window_exceeded'] as const) {
      const decision = decideOnStopReason(reason);
      expect(decision.kind === 'end' && decision.why).toEqual(expect.any(String));
    }
    expect(decideOnStopReason('end_turn')).toEqual({ kind: 'end', status: 'completed' });
  });

  test('a stop reason this host does not know (a newer API) ends the turn visibly, naming it', () => {
    const decision = decideOnStopReason('a_reason_from_the_future' as StopReason);
    expect(decision).toEqual({ kind: 'end', status: 'unknown_stop_reason', why: expect.stringContaining('a_reason_from_the_future') });
  });

  test('a reply without a stop_reason ends the turn as unknown', () => {
    expect(decideOnStopReason(null)).toMatchObject({ kind: 'end', status: 'unknown_stop_reason' });
  });
});
