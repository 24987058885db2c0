/**
 * The naive design, for the history benchmark only (bundled on its own, run on its own task
 * queue): the loop of `src/workflows/run-turn.ts` for one user turn, with the real `listTools`
 * and `callTool` activities, except that every Claude call takes the whole `messages` array and
 * the tool list as its input. That one difference is what the benchmark measures.
 */
import { proxyActivities } from '@temporalio/workflow';
import {
  addUserText,
  appendMessages,
  newConversationState,
  recordModelCall,
} from '../../src/conversation/conversation-state';
import { decideOnStopReason } from '../../src/conversation/stop-decision';
import { toolResultsMessage, toolUsesOf, withoutToolUses } from '../../src/conversation/transcript';
import { catalogActivities } from '../../src/workflows/activity-stubs';
import { notRunResults, runTools } from '../../src/workflows/run-tools';
import type { NaiveActivities, NaiveConversationInput, NaiveConversationResult } from './types';

/** The same timeouts and retries as the real Claude stub (`claudeActivities`), minus heartbeats. */
const { callClaudeWithMessages } = proxyActivities<NaiveActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** One user turn whose Claude calls carry the whole conversation. */
export async function naiveConversationWorkflow(input: NaiveConversationInput): Promise<NaiveConversationResult> {
  const state = newConversationState(input.options);
  addUserText(state, input.text);
  const listed = await catalogActivities(state.options).listTools({});
  if (listed.changed) state.catalog = listed.catalog;
  const { model, maxTokens, system, maxIterations } = state.options;
  let modelCalls = 0;
  for (;;) {
    const reply = await callClaudeWithMessages({
      model,
      maxTokens,
      ...(system !== undefined ? { system } : {}),
      messages: state.messages,
      tools: state.catalog?.tools ?? [],
    });
    modelCalls += 1;
    recordModelCall(state, reply.usage, reply.stopReason);
    const decision = decideOnStopReason(reply.stopReason);
    if (decision.kind === 'run_tools') {
      appendMessages(state, { role: 'assistant', content: reply.content });
      const toolUses = toolUsesOf(reply.content);
      if (modelCalls >= maxIterations) {
        appendMessages(state, toolResultsMessage(notRunResults(toolUses, maxIterations)));
        break;
      }
      appendMessages(state, toolResultsMessage(await runTools(state, toolUses)));
      continue;
    }
    if (decision.kind === 'continue' && modelCalls < maxIterations) {
      appendMessages(state, { role: 'assistant', content: reply.content });
      continue;
    }
    const why = decision.kind === 'end' ? decision.why : undefined;
    appendMessages(state, { role: 'assistant', content: withoutToolUses(reply.content, why ?? `stop_reason ${String(reply.stopReason)}`) });
    break;
  }
  return { messages: state.messages.length, modelCalls, toolCalls: state.toolCalls, stopReason: state.lastStopReason };
}
