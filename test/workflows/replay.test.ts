/**
 * House rule 10: every recorded history in test/histories/ replays against the CURRENT workflow
 * code without a determinism error, so a workflow change that would break running conversations
 * fails here (docs/replay.md: use `patched()`, or re-record when the break is intended). Replay
 * needs no Temporal server: a replay worker feeds the recorded events to the workflow code.
 */
import type { History } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ClaudeCallInput, ClaudeReply } from '../../src/activities/types';
import type { ConversationSummary } from '../../src/conversation/types';
import { dataConverter } from '../../src/temporal/data-converter';
import { workflowBundleOptions } from '../../src/worker/workflow-bundle';
import { historyFromJson } from '../support/history-json';
import { RECORDED_SCENARIOS, recordedWorkflowId } from '../support/recorded-scenarios';
import { scheduledActivityTypes } from '../support/scheduled-activities';
import { TEST_API_KEY } from '../support/test-worker';

const HISTORIES_DIR = path.join(__dirname, '..', 'histories');
const EventType = temporal.api.enums.v1.EventType;

const quietLogger = {
  log: (): void => undefined,
  trace: (): void => undefined,
  debug: (): void => undefined,
  info: (): void => undefined,
  warn: (): void => undefined,
  error: (message: string): void => console.error(message),
};

function readHistory(name: string): { text: string; history: History } {
  const text = fs.readFileSync(path.join(HISTORIES_DIR, `${name}.json`), 'utf8');
  return { text, history: historyFromJson(text) };
}

/** The run's bundle of the current workflow code (global setup), or a fresh one when run without it. */
async function currentWorkflows(): Promise<WorkflowBundleOption> {
  const codePath = process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE;
  if (codePath) return { codePath };
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../../src/workflows'), logger: quietLogger, ...workflowBundleOptions() });
  return { code };
}

describe('recorded workflow histories', () => {
  let workflowBundle: WorkflowBundleOption;
  beforeAll(async () => {
    workflowBundle = await currentWorkflows();
  });

  test('test/histories holds exactly one file per recorded scenario', () => {
    const files = fs.readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json')).sort();
    expect(files).toEqual(RECORDED_SCENARIOS.map((s) => `${s.name}.json`).sort());
  });

  describe.each(RECORDED_SCENARIOS.map((s) => [s.name, s] as const))('%s', (name, scenario) => {
    test('is the complete recording of its scenario, without secrets', () => {
      const { text, history } = readHistory(name);
      expect(text).not.toContain(TEST_API_KEY);
      expect(text).not.toContain('sk-ant-');
      // A replay of an empty or truncated file would prove nothing: check it holds what it claims.
      expect(scheduledActivityTypes(history)).toEqual(scenario.activities);
      expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('conversationWorkflow');
      expect(history.events?.at(-1)?.eventType).toBe(
        scenario.continuesAsNewAfterTurn === undefined
          ? EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED
          : EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
      );
    });

    test('replays against the current workflow code', async () => {
      const { history } = readHistory(name);
      await expect(
        // The production data converter: a recorded payload may be compressed by its codec.
        Worker.runReplayHistory({ workflowBundle, dataConverter, replayName: `replay-test-${name}` }, history, recordedWorkflowId(name)),
      ).resolves.toBeUndefined();
    });
  });

  test('retry-then-success: the 529 is a second attempt of the same activity, not a new command', () => {
    const { history } = readHistory('retry-then-success');
    const started = (history.events ?? []).flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes] : []));
    const retried = started.filter((s) => s.attempt === 2);
    expect(retried).toHaveLength(1);
    expect(retried[0]?.lastFailure?.applicationFailureInfo?.type).toBe('claude.overloaded_error');
    expect(retried[0]?.lastFailure?.applicationFailureInfo?.nextRetryDelay?.seconds?.toString()).toBe('1');
  });

  test('prompt-too-long: the escalation is recorded as a patch marker before the second callClaude', () => {
    const { history } = readHistory('prompt-too-long');
    const events = history.events ?? [];
    const patchIds = (e: (typeof events)[number]): string =>
      Object.values(e.markerRecordedEventAttributes?.details ?? {})
        .flatMap((payloads) => payloads.payloads ?? [])
        .map((payload) => Buffer.from(payload.data ?? new Uint8Array()).toString('utf8'))
        .join(' ');
    const marker = events.findIndex((e) => patchIds(e).includes('"escalate-on-prompt-too-long"'));
    const calls = events.flatMap((e, i) => (e.activityTaskScheduledEventAttributes?.activityType?.name === 'callClaude' ? [i] : []));
    expect(calls).toHaveLength(2);
    expect(marker).toBeGreaterThan(calls[0] as number);
    expect(marker).toBeLessThan(calls[1] as number);
  });

  test('guard-escalation: the call after the tripping reply goes out with the escalated strategy', () => {
    const { history } = readHistory('guard-escalation');
    const strategies = (history.events ?? []).flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      if (scheduled?.activityType?.name !== 'callClaude') return [];
      const payload = scheduled.input?.payloads?.[0];
      const input = JSON.parse(Buffer.from(payload?.data ?? new Uint8Array()).toString('utf8')) as { context: { strategy: { kind: string } } };
      return [input.context.strategy.kind];
    });
    expect(strategies).toEqual(['keep_all', 'placeholder_tool_results', 'placeholder_tool_results']);
  });

  test('thinking: the first turn\'s calls go out with the budget, the setThinking update recorded between the turns, the second turn\'s call adaptive', () => {
    const { history } = readHistory('thinking');
    const events = history.events ?? [];
    const thinking = events.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      if (scheduled?.activityType?.name !== 'callClaude') return [];
      const payload = scheduled.input?.payloads?.[0];
      return [(JSON.parse(Buffer.from(payload?.data ?? new Uint8Array()).toString('utf8')) as ClaudeCallInput).thinking];
    });
    const budget = { type: 'enabled', budgetTokens: 1024 };
    expect(thinking).toEqual([budget, budget, budget, { type: 'adaptive', effort: 'high' }]);
    const updates = events.flatMap((e) => (e.workflowExecutionUpdateAcceptedEventAttributes ? [e.workflowExecutionUpdateAcceptedEventAttributes.acceptedRequest?.input?.name] : []));
    expect(updates).toEqual(['sendMessage', 'setThinking', 'sendMessage']);
  });

  test('tool-search: both calls go out with tool search on, and the reply\'s search blocks are kept in the history', () => {
    const { history } = readHistory('tool-search');
    const events = history.events ?? [];
    const decode = (payload: { data?: Uint8Array | null } | undefined): unknown => JSON.parse(Buffer.from(payload?.data ?? new Uint8Array()).toString('utf8'));
    const settings = events.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      if (scheduled?.activityType?.name !== 'callClaude') return [];
      return [(decode(scheduled.input?.payloads?.[0]) as ClaudeCallInput).toolSearch?.mode];
    });
    expect(settings).toEqual(['on', 'on']);
    const replies = events.flatMap((e) => (e.activityTaskCompletedEventAttributes ? [decode(e.activityTaskCompletedEventAttributes.result?.payloads?.[0])] : []));
    const types = replies.flatMap((r) => {
      const content = (r as { content?: unknown }).content;
      return Array.isArray(content) ? content.map((b: { type: string }) => b.type) : [];
    });
    expect(types).toEqual(expect.arrayContaining(['server_tool_use', 'tool_search_tool_result', 'tool_use']));
  });

  test('compaction: calls go out compact until the setContextStrategy update, then clear_tool_uses; the compaction block is kept in the history', () => {
    const { history } = readHistory('compaction');
    const events = history.events ?? [];
    const decode = (payload: { data?: Uint8Array | null } | undefined): unknown => JSON.parse(Buffer.from(payload?.data ?? new Uint8Array()).toString('utf8'));
    const strategies = events.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      if (scheduled?.activityType?.name !== 'callClaude') return [];
      return [(decode(scheduled.input?.payloads?.[0]) as ClaudeCallInput).context.strategy];
    });
    const compact = { kind: 'compact', triggerTokens: 50_000 };
    expect(strategies).toEqual([compact, compact, { kind: 'clear_tool_uses', keepToolUses: 1 }]);
    const replies = events.flatMap((e) => (e.activityTaskCompletedEventAttributes ? [decode(e.activityTaskCompletedEventAttributes.result?.payloads?.[0])] : []));
    const first = replies.find((r) => Array.isArray((r as { content?: unknown }).content)) as { content: Array<{ type: string }>; usage: { compaction?: unknown } };
    expect(first.content.map((b) => b.type)).toEqual(['compaction', 'tool_use']);
    expect(first.usage.compaction).toEqual({ input_tokens: 61_000, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  test('server-tools: every call offers the web search, the replies keep their server blocks and counts, and no MCP tool ran for a search', () => {
    const { history } = readHistory('server-tools');
    const events = history.events ?? [];
    const decode = (payload: { data?: Uint8Array | null } | undefined): unknown => JSON.parse(Buffer.from(payload?.data ?? new Uint8Array()).toString('utf8'));
    const inputs = events.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      return scheduled?.activityType?.name === 'callClaude' ? [decode(scheduled.input?.payloads?.[0]) as ClaudeCallInput] : [];
    });
    expect(inputs.map((input) => input.serverTools)).toEqual(Array(4).fill([{ name: 'web_search', maxUses: 5 }]));
    const replies = events.flatMap((e) => (e.activityTaskCompletedEventAttributes ? [decode(e.activityTaskCompletedEventAttributes.result?.payloads?.[0])] : []));
    const claude = replies.filter((r): r is ClaudeReply => typeof r === 'object' && r !== null && 'stopReason' in r);
    expect(claude.map((r) => r.stopReason)).toEqual(['pause_turn', 'end_turn', 'tool_use', 'end_turn']);
    expect(claude.map((r) => r.content.map((b) => b.type))).toEqual([
      ['text', 'server_tool_use', 'web_search_tool_result'],
      ['text'],
      ['server_tool_use', 'tool_use'],
      ['web_search_tool_result', 'text'],
    ]);
    expect(claude.map((r) => r.usage.server_tool_use?.web_search_requests ?? 0)).toEqual([1, 0, 0, 1]);
    // The one MCP call is the weather tool's, not a search.
    const toolCalls = events.flatMap((e) => (e.activityTaskScheduledEventAttributes?.activityType?.name === 'callTool' ? [decode(e.activityTaskScheduledEventAttributes.input?.payloads?.[0])] : []));
    expect(toolCalls).toEqual([expect.objectContaining({ tool: 'get_weather', toolUseId: 'toolu_replay_01' })]);
    const completed = events.at(-1)?.workflowExecutionCompletedEventAttributes;
    const summary = decode(completed?.result?.payloads?.[0]) as ConversationSummary;
    expect(summary.status.usage).toMatchObject({ webSearchRequests: 2 });
    expect(summary.status.cost.usd).toBeGreaterThanOrEqual(0.02);
  });

  test('budget: the stopped turn schedules no Claude call after its tool, the setBudget update between the turns', () => {
    const { history } = readHistory('budget');
    const events = history.events ?? [];
    const names = events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name] : []));
    expect(names.slice(4, 7)).toEqual(['callTool', 'listTools', 'callClaude']);
    const updates = events.flatMap((e) => (e.workflowExecutionUpdateAcceptedEventAttributes ? [e.workflowExecutionUpdateAcceptedEventAttributes.acceptedRequest?.input?.name] : []));
    expect(updates).toEqual(['sendMessage', 'sendMessage', 'setBudget', 'sendMessage']);
  });

  test('tool-approval: the patch marker before the first approval, the waiting search attribute set and cleared, the denied calls never scheduled', () => {
    const { history } = readHistory('tool-approval');
    const events = history.events ?? [];
    const texts = (payloads: Array<{ data?: Uint8Array | null }>): string => payloads.map((p) => Buffer.from(p.data ?? new Uint8Array()).toString('utf8')).join(' ');
    const marker = events.findIndex((e) => texts(Object.values(e.markerRecordedEventAttributes?.details ?? {}).flatMap((p) => p.payloads ?? [])).includes('"tool-approval"'));
    const calls = events.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      return scheduled?.activityType?.name === 'callTool' ? [JSON.parse(texts(scheduled.input?.payloads ?? [])) as { tool: string; toolUseId: string }] : [];
    });
    expect(calls.map((c) => c.toolUseId)).toEqual(['toolu_appr_add', 'toolu_appr_b']);
    expect(marker).toBeGreaterThan(events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callClaude'));
    const waiting = events.flatMap((e) => {
      const field = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.McpHostWaitingApproval;
      return field ? [texts([field])] : [];
    });
    expect(waiting).toEqual(['true', 'false']);
    const updates = events.flatMap((e) => (e.workflowExecutionUpdateAcceptedEventAttributes ? [e.workflowExecutionUpdateAcceptedEventAttributes.acceptedRequest?.input?.name] : []));
    expect(updates).toEqual(['sendMessage', 'approveToolCalls', 'denyToolCalls']);
  });

  test('claude-added-messages: each Claude call carries the messages added since the previous one, behind its patch marker', () => {
    const { history } = readHistory('claude-added-messages');
    const events = history.events ?? [];
    const inputs = events.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      if (scheduled?.activityType?.name !== 'callClaude') return [];
      const payload = scheduled.input?.payloads?.[0];
      return [JSON.parse(Buffer.from(payload?.data ?? new Uint8Array()).toString('utf8')) as ClaudeCallInput];
    });
    expect(inputs.map((input) => [input.added?.from, input.added?.messages.length, input.transcript.messageCount])).toEqual([
      [0, 1, 1],
      [1, 2, 3],
      [3, 2, 5],
    ]);
    const marker = events.findIndex((e) =>
      Object.values(e.markerRecordedEventAttributes?.details ?? {})
        .flatMap((payloads) => payloads.payloads ?? [])
        .some((payload) => Buffer.from(payload.data ?? new Uint8Array()).toString('utf8').includes('"claude-input-carries-added-messages"')));
    const firstCall = events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callClaude');
    expect(marker).toBeGreaterThanOrEqual(0);
    expect(marker).toBeLessThan(firstCall);
  });

  test('continue-as-new: the recorded run starts from the previous run\'s carried state and continues as new itself', () => {
    const { history } = readHistory('continue-as-new');
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    expect(started?.continuedExecutionRunId).toBeTruthy();
    expect(started?.initiator).toBe(temporal.api.enums.v1.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_WORKFLOW);
    expect(history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId).toBeTruthy();
  });

  test('fast-tool: the fast call is a local-activity marker, the other a callTool activity, both from the workflow task that got the reply', () => {
    const { history } = readHistory('fast-tool');
    const events = history.events ?? [];
    const markers = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    expect(markers).toHaveLength(1);
    // The Web UI's summary, as a regular call's: the marker carries it as user metadata.
    expect(JSON.parse(Buffer.from(markers[0]?.userMetadata?.summary?.data ?? new Uint8Array()).toString('utf8'))).toBe('add {"a":1,"b":2} · lab');
    const toolUseIds = (payloads: Array<{ data?: Uint8Array | null }>): string[] =>
      payloads.map((p) => (JSON.parse(Buffer.from(p.data ?? new Uint8Array()).toString('utf8')) as { toolUseId: string }).toolUseId);
    const scheduledTools = events.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      return scheduled?.activityType?.name === 'callTool' ? toolUseIds(scheduled.input?.payloads ?? []) : [];
    });
    expect(scheduledTools).toEqual(['toolu_fast_echo']);
    // The local activity ran inside that task: its marker is recorded in the same completion.
    const toolTask = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callTool')?.activityTaskScheduledEventAttributes?.workflowTaskCompletedEventId;
    expect(String(markers[0]?.markerRecordedEventAttributes?.workflowTaskCompletedEventId)).toBe(String(toolTask));
  });

  test('parallel-tools: both tool calls are scheduled by the same workflow task', () => {
    const { history } = readHistory('parallel-tools');
    const toolTasks = (history.events ?? []).flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      return scheduled?.activityType?.name === 'callTool' ? [String(scheduled.workflowTaskCompletedEventId)] : [];
    });
    expect(toolTasks).toHaveLength(2);
    expect(new Set(toolTasks).size).toBe(1);
  });
});

describe('the replay check can fail', () => {
  let divergent: WorkflowBundleOption;
  beforeAll(async () => {
    const { code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('../fixtures/divergent-conversation-workflow'),
      logger: quietLogger,
    });
    divergent = { code };
  });

  test.each(RECORDED_SCENARIOS.map((s) => s.name))(
    '%s is a determinism violation for a workflow that schedules a different activity first',
    async (name) => {
      const { history } = readHistory(name);
      const replay = Worker.runReplayHistory(
        { workflowBundle: divergent, dataConverter, replayName: `replay-test-divergent-${name}` },
        history,
        recordedWorkflowId(name),
      );
      await expect(replay).rejects.toThrow(DeterminismViolationError);
      // The error names the mismatch, so a real failure tells the reader what changed. A continued
      // run's first workflow task records the progress patch marker before it lists the tools.
      const continued = RECORDED_SCENARIOS.find((s) => s.name === name)?.continuesAsNewAfterTurn !== undefined;
      await expect(replay).rejects.toThrow(
        continued ? /patch marker encountered for change progress-search-attributes-and-memo/ : /'listTools' does not match .*'callTool'/,
      );
    },
  );
});
