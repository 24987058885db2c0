/**
 * The expectation of a planned conversation whose first turn starts with one injected round: the
 * model's tool call (a fault scripted into the fake) and the host's answer to it, then the plan.
 * The answer's wording is the host's or the server's own; the scenario says what it must be (an
 * `is_error` result, a text) and what the tool call's activity must have done.
 */
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';
import { plannedExpectation, type Expectation } from './check-conversations';
import type { WorkloadConversation } from './conversation-workload';
import type { ScenarioRig } from './scenario-rig';
import type { WorkloadShape } from './turn-plan';

/** A tool_result block as the transcript holds it. */
export type ToolResultBlock = Extract<ContentBlockParam, { type: 'tool_result' }>;

/** The injected call. */
export interface InjectedCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}


/** What the call's activity must have done: completed, ended either way (completed or failed), or never been scheduled. */
export type InjectedOutcome = 'completed' | 'ended' | 'unscheduled';

/** The model's step that makes the call. */
export function injectedCallStep(call: InjectedCall): { kind: 'message'; content: Array<{ type: 'tool_use' } & InjectedCall>; stop_reason: 'tool_use' } {
  return { kind: 'message', content: [{ type: 'tool_use', ...call }], stop_reason: 'tool_use' };
}

/** Text of a tool result's content (a string, or text blocks joined). */
export function resultText(block: ToolResultBlock): string {
  if (typeof block.content === 'string') return block.content;
  return (block.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** The expectation; `accept` says whether the host's answer (from the actual transcript) is the designed one. */
export async function withInjectedRound(
  rig: ScenarioRig,
  shape: WorkloadShape,
  conversation: WorkloadConversation,
  call: InjectedCall,
  outcome: InjectedOutcome,
  accept: (result: ToolResultBlock) => boolean,
): Promise<Expectation> {
  const planned = plannedExpectation(shape, rig.run, conversation);
  const actual = await rig.client.conversations.history(conversation.id).catch((): MessageParam[] => []);
  const answer = actual[2];
  const first = typeof answer?.content === 'string' ? undefined : answer?.content[0];
  const designed = first?.type === 'tool_result' && first.tool_use_id === call.id && accept(first);
  const [user, ...rest] = planned.messages;
  return {
    messages: [
      ...(user ? [user] : []),
      { role: 'assistant', content: [{ type: 'tool_use', ...call }] },
      designed && answer ? answer : { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '(the designed answer)' }] },
      ...rest,
    ],
    toolIds: [...planned.toolIds, ...(outcome === 'completed' ? [call.id] : [])],
    ...(outcome === 'ended' ? { endedToolIds: [call.id] } : {}),
    modelCalls: planned.modelCalls + 1,
  };
}
