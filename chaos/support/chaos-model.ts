/**
 * The scripted fake of Claude's Messages API the chaos scenarios run against: every answer comes
 * from the turn plan and the request alone (so a retried call gets the same answer a replay would),
 * after a random delay, and the fake says at any moment whether a call is in flight, so a kill
 * can be aimed at one.
 */
import type { MessageParam } from '../../src/conversation/types';
import { startFakeMessagesApi, type FakeMessagesApi, type RecordedRequest, type ScriptStep } from '../../src/testing';
import { parseUserText, roundContent, turnPlan, type WorkloadShape } from './turn-plan';

/** The running fake and what the scenarios read from it. */
export interface ChaosModel {
  fake: FakeMessagesApi;
  /** Whether a request is being answered right now (received, its delay not over). */
  inFlight(): boolean;
  /** The next requests of conversation `conversation` get these steps, in order, before the plan's answers. */
  inject(conversation: number, ...steps: ScriptStep[]): void;
  /** The requests conversation `conversation` made, in order. */
  requestsOf(conversation: number): RecordedRequest[];
  close(): Promise<void>;
}

/** The turn a user message starts: its last text block (a failed turn's text is joined by the next one's). */
function turnOf(message: MessageParam | undefined): ReturnType<typeof parseUserText> {
  if (message?.role !== 'user') return undefined;
  if (typeof message.content === 'string') return parseUserText(message.content);
  if (message.content.some((b) => b.type === 'tool_result')) return undefined;
  const last = message.content.at(-1);
  return last?.type === 'text' ? parseUserText(last.text) : undefined;
}

/** Tool results answering one of these ids: a round of the plan (an injected round is not one). */
function answersPlanned(message: MessageParam, planned: ReadonlySet<string>): boolean {
  return typeof message.content !== 'string' && message.content.some((b) => b.type === 'tool_result' && planned.has(b.tool_use_id));
}

/** The conversation number a request belongs to (from its first user text), if it is a planned one. */
function conversationOf(request: RecordedRequest): number | undefined {
  const messages = (request.body as { messages?: MessageParam[] } | undefined)?.messages;
  return turnOf(messages?.[0])?.conversation;
}

/** The answer the plan gives at this point of the conversation; a loud 500 for a request it cannot place. */
export function plannedAnswer(shape: WorkloadShape, request: RecordedRequest): ScriptStep {
  const messages = (request.body as { messages: MessageParam[] }).messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const turn = turnOf(messages[i]);
    if (!turn) continue;
    const plan = turnPlan(shape, turn.run, turn.conversation, turn.turn);
    const planned = new Set(plan.rounds.flat().map((tool) => tool.id));
    const round = messages.slice(i + 1).filter((m) => answersPlanned(m, planned)).length;
    if (round < plan.rounds.length) {
      return { kind: 'message', content: roundContent(plan, round), stop_reason: 'tool_use' };
    }
    return { kind: 'message', content: [{ type: 'text', text: plan.answer }], stop_reason: 'end_turn' };
  }
  return { kind: 'error', status: 500, message: 'chaos model: no planned user turn in the request' };
}

/** Starts the fake; each answer waits a random time within `delayMs`. */
export async function startChaosModel(shape: WorkloadShape, delayMs: readonly [number, number]): Promise<ChaosModel> {
  let busyUntil: number[] = [];
  const injected = new Map<number, ScriptStep[]>();
  const fake = await startFakeMessagesApi({ mode: 'scripted' });
  const step: ScriptStep = {
    kind: 'respond',
    respond: (request) => {
      // Each answered request queues the next step, so the script never runs out however many retries there are.
      fake.enqueue(step);
      const fault = injected.get(conversationOf(request) ?? -1)?.shift();
      if (fault) return fault;
      const delay = delayMs[0] + Math.random() * (delayMs[1] - delayMs[0]);
      busyUntil.push(Date.now() + delay);
      const answer = plannedAnswer(shape, request);
      return answer.kind === 'respond' ? answer : { ...answer, delayMs: delay };
    },
  };
  fake.enqueue(step);
  return {
    fake,
    inFlight: () => {
      const now = Date.now();
      busyUntil = busyUntil.filter((until) => until > now);
      return busyUntil.length > 0;
    },
    inject: (conversation, ...steps) => injected.set(conversation, [...(injected.get(conversation) ?? []), ...steps]),
    requestsOf: (conversation) => fake.requests.filter((request) => conversationOf(request) === conversation),
    close: () => fake.close(),
  };
}
