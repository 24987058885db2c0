/**
 * What every chaos conversation says, decided by its number and turn alone: the user's text, the
 * model's rounds of parallel `slow_echo` calls, and the final answer. Because the plan is a pure
 * function, the scripted model can answer any request (a retried one included) from the request
 * itself, and the suite knows exactly which messages each conversation must end with.
 */
import type { MessageParam } from '../../src/conversation/types';

/** The shape of the workload's conversations. */
export interface WorkloadShape {
  turns: number;
  /** Rounds of tool calls per turn, inclusive range. */
  rounds: readonly [number, number];
  /** Tool calls the model makes at once in each round. */
  parallelTools: number;
  /** How long each `slow_echo` call takes, inclusive range in ms. */
  toolMs: readonly [number, number];
}

/** One tool call of a round. */
export interface ToolPlan {
  id: string;
  /** The `text` argument: unique in the whole run, so the lab server's log counts executions per tool_use id. */
  echo: string;
  ms: number;
}

/** One user turn as planned. */
export interface TurnPlan {
  userText: string;
  rounds: ToolPlan[][];
  answer: string;
}

/** A small deterministic hash, so plans vary between conversations and stay the same between calls. */
function spread(seed: string, low: number, high: number): number {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return low + (h % (high - low + 1));
}

/** The user's text of turn `turn` (1-based) of conversation `conversation` of run `run`. */
export function userText(run: string, conversation: number, turn: number): string {
  return `chaos ${run} c${conversation} turn ${turn}`;
}

/** Reads back run, conversation and turn from a user text this module wrote; undefined for any other text. */
export function parseUserText(text: string): { run: string; conversation: number; turn: number } | undefined {
  const match = /^chaos (\S+) c(\d+) turn (\d+)$/.exec(text);
  return match ? { run: match[1] ?? '', conversation: Number(match[2]), turn: Number(match[3]) } : undefined;
}

/** The plan of one turn. */
export function turnPlan(shape: WorkloadShape, run: string, conversation: number, turn: number): TurnPlan {
  const key = `${run}.c${conversation}.t${turn}`;
  const roundCount = spread(key, shape.rounds[0], shape.rounds[1]);
  const rounds = Array.from({ length: roundCount }, (_, r) =>
    Array.from({ length: shape.parallelTools }, (__, k): ToolPlan => {
      const echo = `${key}.r${r + 1}.${k + 1}`;
      return { id: `toolu_c${conversation}_t${turn}_r${r + 1}_${k + 1}`, echo, ms: spread(echo, shape.toolMs[0], shape.toolMs[1]) };
    }),
  );
  return { userText: userText(run, conversation, turn), rounds, answer: `c${conversation} turn ${turn} done after ${roundCount} rounds` };
}

/** A block of a planned reply: plain enough to be both a script's answer and a transcript's message. */
export type PlannedBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: { text: string; ms: number } };

/** The model's reply in round `round` (0-based) of a turn: a line of text and the round's tool calls. */
export function roundContent(plan: TurnPlan, round: number): PlannedBlock[] {
  const tools = plan.rounds[round] ?? [];
  return [
    { type: 'text', text: `round ${round + 1}` },
    ...tools.map((t): PlannedBlock => ({ type: 'tool_use', id: t.id, name: 'slow_echo', input: { text: t.echo, ms: t.ms } })),
  ];
}

/** The messages one turn must add to the transcript, in order. */
export function turnTranscript(plan: TurnPlan): MessageParam[] {
  const rounds = plan.rounds.flatMap((tools, r): MessageParam[] => [
    { role: 'assistant', content: roundContent(plan, r) },
    { role: 'user', content: tools.map((t) => ({ type: 'tool_result' as const, tool_use_id: t.id, content: `echo: ${t.echo}` })) },
  ]);
  return [{ role: 'user', content: plan.userText }, ...rounds, { role: 'assistant', content: [{ type: 'text', text: plan.answer }] }];
}

/** Every message a conversation that ran `turns` turns must hold, in order. */
export function expectedTranscript(shape: WorkloadShape, run: string, conversation: number, turns: number): MessageParam[] {
  return Array.from({ length: turns }, (_, t) => turnTranscript(turnPlan(shape, run, conversation, t + 1))).flat();
}
