import {
  acceptedTurn,
  REMEMBERED_RESULTS,
  REMEMBERED_TURN_IDS,
  rememberResult,
  rememberTurn,
  repeatProblem,
  signalKey,
  updateKey,
  type AcceptedTurns,
} from '../../src/conversation/accepted-turns';
import type { TurnResult } from '../../src/conversation/types';

const result = (turnId: number): TurnResult => ({ turnId, status: 'completed', text: `answer ${turnId}`, stopReason: 'end_turn', modelCalls: 1, toolCalls: 0 });

describe('accepted turns', () => {
  let state: AcceptedTurns;
  beforeEach(() => {
    state = { accepted: [] };
  });

  test('an update id and a signal message id live in separate namespaces', () => {
    rememberTurn(state, updateKey('a'), 1);
    expect(acceptedTurn(state, updateKey('a'))).toEqual({ key: 'update:a', turnId: 1 });
    expect(acceptedTurn(state, signalKey('a'))).toBeUndefined();
  });

  test('a finished turn\'s result is kept with its update', () => {
    rememberTurn(state, updateKey('a'), 1);
    rememberResult(state, result(1));
    expect(acceptedTurn(state, updateKey('a'))?.result).toEqual(result(1));
    expect(repeatProblem(state, updateKey('a'))).toBeUndefined();
    // A result of a turn no update asked for (a signal's) is not kept.
    rememberTurn(state, signalKey('s'), 2);
    rememberResult(state, result(2));
    expect(acceptedTurn(state, signalKey('s'))?.result).toBeUndefined();
  });

  test(`ids are bounded (${REMEMBERED_TURN_IDS}, the newest), results more so (${REMEMBERED_RESULTS})`, () => {
    for (let turn = 1; turn <= REMEMBERED_TURN_IDS + 5; turn++) {
      rememberTurn(state, updateKey(`u${turn}`), turn);
      rememberResult(state, result(turn));
    }
    expect(state.accepted).toHaveLength(REMEMBERED_TURN_IDS);
    expect(acceptedTurn(state, updateKey('u5'))).toBeUndefined();
    expect(acceptedTurn(state, updateKey('u6'))).toMatchObject({ turnId: 6, resultDropped: true });
    expect(state.accepted.filter((turn) => turn.result !== undefined).map((turn) => turn.turnId)).toEqual(
      Array.from({ length: REMEMBERED_RESULTS }, (_, i) => REMEMBERED_TURN_IDS + 5 - REMEMBERED_RESULTS + 1 + i),
    );
    expect(repeatProblem(state, updateKey('u6'))).toMatch(/already taken as turn 6; its answer is no longer kept/);
    expect(repeatProblem(state, updateKey(`u${REMEMBERED_TURN_IDS + 5}`))).toBeUndefined();
  });
});
