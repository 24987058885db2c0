/**
 * The invariants of every chaos run, per conversation: its messages exactly the expected ones
 * (nothing lost, nothing duplicated), and its recorded history (every run of it) agreeing: each
 * expected tool_use id scheduled and completed exactly once, the expected number of completed
 * Claude calls, each turn's update accepted once in each run it reached and every acceptance completed.
 */
import type { MessageParam } from '../../src/conversation/types';
import { historyFacts, type HistoryFacts } from './history-facts';
import type { LibraryClient } from './host-library';
import { runHistories } from './run-histories';
import { diffTranscript } from './transcript-diff';
import { expectedTranscript, turnPlan, type WorkloadShape } from './turn-plan';
import type { WorkloadConversation } from './conversation-workload';

/** The verdict on one conversation. */
export interface ConversationVerdict {
  conversation: WorkloadConversation;
  exact: boolean;
  lost: number;
  duplicated: number;
  facts: HistoryFacts;
  problems: string[];
}

/** What a conversation must end with, and what its history must show. */
export interface Expectation {
  messages: MessageParam[];
  /** The tool_use ids the host must have run, each scheduled and completed exactly once. */
  toolIds: string[];
  /**
   * Tool_use ids scheduled exactly once whose activity may complete or fail (after a failure the
   * host answers with an is_error result): which one is the retry policy's business, not an invariant.
   */
  endedToolIds?: string[];
  /** Completed Claude calls. */
  modelCalls: number;
}

/** The expectation of a conversation that ran its planned turns undisturbed (faults may not change it). */
export function plannedExpectation(shape: WorkloadShape, run: string, conversation: WorkloadConversation): Expectation {
  const plans = conversation.turns.map((t) => turnPlan(shape, run, conversation.number, t.turn));
  return {
    messages: expectedTranscript(shape, run, conversation.number, conversation.turns.length),
    toolIds: plans.flatMap((p) => p.rounds.flat().map((tool) => tool.id)),
    modelCalls: plans.reduce((n, p) => n + p.rounds.length + 1, 0),
  };
}

function historyProblems(conversation: WorkloadConversation, expectation: Expectation, facts: HistoryFacts): string[] {
  const problems: string[] = [];
  const ended = new Set(expectation.endedToolIds ?? []);
  const expected = new Set([...expectation.toolIds, ...ended]);
  for (const id of expected) {
    const calls = facts.toolCalls.get(id);
    if (calls?.scheduled !== 1 || (ended.has(id) ? calls.completed > 1 : calls.completed !== 1)) {
      problems.push(`history: tool ${id} scheduled ${calls?.scheduled ?? 0}×, completed ${calls?.completed ?? 0}×`);
    }
  }
  for (const id of facts.toolCalls.keys()) if (!expected.has(id)) problems.push(`history: unexpected tool call ${id}`);
  if (facts.claudeCompleted !== expectation.modelCalls) {
    problems.push(`history: ${facts.claudeCompleted} Claude calls completed, ${expectation.modelCalls} expected`);
  }
  // Each turn's update is accepted once per run it reached: a repeat in a later run (a send retried
  // across a continue-as-new) is answered from the stored result, and that it added no turn is
  // what the transcript, tool-call and Claude-call checks above and in checkConversation prove.
  let acceptances = 0;
  for (const turn of conversation.turns) {
    const accepted = facts.updatesAccepted.get(turn.text);
    acceptances += accepted?.count ?? 0;
    if (accepted?.mostInOneRun !== 1) {
      problems.push(`history: the update "${turn.text}" accepted ${accepted?.mostInOneRun ?? 0}× in one run`);
    }
  }
  if (facts.updatesCompleted !== acceptances) {
    problems.push(`history: ${facts.updatesCompleted} updates completed, ${acceptances} accepted (${conversation.turns.length} turns sent)`);
  }
  if (conversation.ended && !facts.completed) problems.push('history: ended, but the last run did not complete');
  return problems;
}

/** Checks one conversation against what it must hold and against its history. */
export async function checkConversation(client: LibraryClient, conversation: WorkloadConversation, expectation: Expectation): Promise<ConversationVerdict> {
  const problems = [...conversation.problems];
  let messages: MessageParam[] = [];
  try {
    messages = await client.conversations.history(conversation.id);
  } catch (err) {
    problems.push(`history query: ${err instanceof Error ? err.message : String(err)}`);
  }
  const diff = diffTranscript(expectation.messages, messages);
  if (!diff.exact) problems.push(`transcript not exact: ${messages.length} messages, ${diff.lost} lost, ${diff.duplicated} duplicated or unexpected`);
  const facts = await historyFacts(await runHistories(client.conversations.client, conversation.id));
  problems.push(...historyProblems(conversation, expectation, facts));
  return { conversation, ...diff, facts, problems };
}

/** Checks every conversation, a few at a time (hundreds of histories are fetched). */
export async function checkConversations(
  client: LibraryClient,
  conversations: readonly WorkloadConversation[],
  expect: (conversation: WorkloadConversation) => Expectation | Promise<Expectation>,
): Promise<ConversationVerdict[]> {
  const verdicts: ConversationVerdict[] = [];
  for (let i = 0; i < conversations.length; i += 8) {
    const batch = conversations.slice(i, i + 8).map(async (c) => checkConversation(client, c, await expect(c)));
    verdicts.push(...(await Promise.all(batch)));
  }
  return verdicts;
}
