/**
 * The conversations whose workflow histories are recorded into `test/histories/` (by
 * `scripts/record-histories.ts`) and replayed against the current workflow code by
 * `test/workflows/replay.test.ts` (house rule 10). One place defines each scenario: its servers, the fake
 * model's script, the user turns with the results they must give, and the activities its history
 * schedules, so recorder and replay test cannot drift apart.
 */
import { signCompaction, signThinking, type ScriptContentBlock, type ScriptStep } from '../../src/testing';
import type { ConversationOptionsInput } from '../../src/client/conversation-options';
import type { ConversationStatus, TurnResult } from '../../src/conversation/types';
import type { McpServerConfig } from '../../src/mcp/config';
import type { TurnContent } from '../../src/conversation/turn-content';
import type { Thinking } from '../../src/conversation/thinking';
import type { ContextStrategy } from '../../src/context/context-strategy';
import type { Budget } from '../../src/conversation/budget';
import { tsServer, weatherServer } from './repo';
import { citedText, webSearchResult, webSearchUse } from './server-tool-blocks';

/** One user turn and the fields of its result the recording insists on. */
export interface RecordedTurn {
  text: string;
  expect: Partial<TurnResult>;
  /** Decisions sent while the turn runs, in order, each once its calls wait for approval. */
  approvals?: RecordedApproval[];
  /** Answers sent while the turn runs, in order, each once a request of its server waits (servers that ask back). */
  inputs?: RecordedInput[];
  /** Resources attached and a prompt run as the turn, as the client reads them (issue 28). */
  content?: TurnContent;
  /** Sent as the `setThinking` update before the turn (null: off; issue 29). */
  setThinking?: Thinking | null;
  /** Sent as the `setContextStrategy` update before the turn. */
  context?: ContextStrategy;
  /** Sent as the `setBudget` update before the turn (null: none; issue 30). */
  budget?: Budget | null;
}

/** An answer the recorder sends to a server's request for input: accept (with a form's content), decline or cancel. */
export interface RecordedInput {
  server: string;
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

/** An approve or deny the recorder sends during a turn (tool approval). */
export type RecordedApproval = { approve: string[] } | { deny: string[]; reason?: string };

/** A conversation recorded into `test/histories/<name>.json`. */
export interface RecordedScenario {
  /** The file name (without `.json`) and, as `replay-<name>`, the workflow id. */
  name: string;
  servers: () => McpServerConfig[];
  options: ConversationOptionsInput;
  script: ScriptStep[];
  turns: RecordedTurn[];
  /** Fields of the workflow's final status (its result, after the `end` signal). */
  status: Partial<ConversationStatus>;
  /** Requests the fake must have answered by the end (fewer than the script when it runs on "forever"). */
  requests: number;
  /** The activity types the history schedules, in order: proves the file is this scenario's. */
  activities: string[];
  /**
   * Started as `mcp-host start` starts it: static summary and details, and the conversation search
   * attributes (the recorder's server registers them), so the history holds their upserts.
   */
  startedWithProgress?: boolean;
  /**
   * The conversation continues as new after this turn (its `continueAsNewAfterEvents` is small):
   * the recorder waits for the new run before the next turn and records THAT run, whose input is
   * the carried state and which itself ends by continuing as new; `activities` are that run's.
   */
  continuesAsNewAfterTurn?: number;
}

/** The workflow id a scenario is recorded and replayed under (histories do not store it). */
export function recordedWorkflowId(name: string): string {
  return `replay-${name}`;
}

const labServer = (): McpServerConfig => tsServer('lab', 'test/fixtures/lab-server.ts');

const weatherToolUse = (id: string, city: string): ScriptStep => ({
  kind: 'message',
  content: [{ type: 'tool_use', id, name: 'get_weather', input: { city } }],
  stop_reason: 'tool_use',
});

const endTurn = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

/** The summary of the compaction scenario's scripted compaction block. */
const COMPACTION_SUMMARY = 'The user shared a long weather log and asked about Beijing today.';

/** A thinking block signed as the fake signs its own, so the fake refuses it edited on its way back. */
const thought = (text: string): ScriptContentBlock => ({ type: 'thinking', thinking: text, signature: signThinking(text) });

/** Every recorded scenario, in recording order. */
export const RECORDED_SCENARIOS: readonly RecordedScenario[] = [
  {
    // The seed's §7.2 conversation: a greeting, one weather call, then a follow-up that relies on history.
    name: 'seed-weather',
    servers: () => [weatherServer()],
    options: { system: '你是一个专业的天气助手，回答简洁。' },
    script: [
      endTurn('你好，有什么可以帮你？'),
      {
        kind: 'message',
        content: [
          { type: 'text', text: '我需要查一下北京的天气。' },
          { type: 'tool_use', id: 'toolu_01AbC', name: 'get_weather', input: { city: '北京' } },
        ],
        stop_reason: 'tool_use',
      },
      endTurn('北京今天晴，25°C，适合出门。'),
      weatherToolUse('toolu_02SH', '上海'),
      endTurn('上海今天多云，22°C。'),
    ],
    turns: [
      { text: '你好', expect: { status: 'completed', text: '你好，有什么可以帮你？', modelCalls: 1, toolCalls: 0 } },
      { text: '北京今天天气怎么样', expect: { status: 'completed', text: '北京今天晴，25°C，适合出门。', modelCalls: 2, toolCalls: 1 } },
      { text: '那上海呢', expect: { status: 'completed', text: '上海今天多云，22°C。', modelCalls: 2, toolCalls: 1 } },
    ],
    status: { state: 'ended', turnsCompleted: 3, modelCalls: 5, toolCalls: 2, toolErrors: 0, hostToolErrors: 0 },
    requests: 5,
    activities: [
      'listTools', 'callClaude',
      'listTools', 'callClaude', 'callTool', 'callClaude',
      'listTools', 'callClaude', 'callTool', 'callClaude',
    ],
  },
  {
    // Two tool_use blocks in one reply: both scheduled in the same workflow task, one user message back (S17).
    name: 'parallel-tools',
    servers: () => [labServer()],
    options: {},
    script: [
      {
        kind: 'message',
        content: [
          { type: 'text', text: 'Adding both.' },
          { type: 'tool_use', id: 'toolu_01Add', name: 'add', input: { a: 1, b: 2 } },
          { type: 'tool_use', id: 'toolu_02Add', name: 'add', input: { a: 3, b: 4 } },
        ],
        stop_reason: 'tool_use',
      },
      endTurn('3 and 7.'),
    ],
    turns: [{ text: 'What are 1+2 and 3+4?', expect: { status: 'completed', text: '3 and 7.', modelCalls: 2, toolCalls: 2 } }],
    status: { state: 'ended', turnsCompleted: 1, modelCalls: 2, toolCalls: 2, toolErrors: 0, hostToolErrors: 0 },
    requests: 2,
    activities: ['listTools', 'callClaude', 'callTool', 'callTool', 'callClaude'],
  },
  {
    // An MCP `isError` result is data (S10, S14): the loop goes on and the model answers.
    name: 'tool-error',
    servers: () => [weatherServer()],
    options: {},
    script: [weatherToolUse('toolu_01Err', '北进'), endTurn('找不到北进，你是想问北京吗？')],
    turns: [{ text: '北进天气怎么样', expect: { status: 'completed', text: '找不到北进，你是想问北京吗？', modelCalls: 2, toolCalls: 1 } }],
    status: { state: 'ended', turnsCompleted: 1, modelCalls: 2, toolCalls: 1, toolErrors: 1, hostToolErrors: 0 },
    requests: 2,
    activities: ['listTools', 'callClaude', 'callTool', 'callClaude'],
  },
  {
    // A 529 with `retry-after: 1`: Temporal retries the same activity (attempt 2), no new command.
    name: 'retry-then-success',
    servers: () => [weatherServer()],
    options: {},
    script: [{ kind: 'error', status: 529, headers: { 'retry-after': '1' } }, endTurn('你好！')],
    turns: [{ text: '你好', expect: { status: 'completed', text: '你好！', modelCalls: 1, toolCalls: 0 } }],
    status: { state: 'ended', turnsCompleted: 1, modelCalls: 1, toolCalls: 0, lastStopReason: 'end_turn' },
    requests: 2,
    activities: ['listTools', 'callClaude'],
  },
  {
    // A model that asks for tools forever: the per-turn limit (2 model calls) stops it (S17).
    name: 'iteration-limit',
    servers: () => [weatherServer()],
    options: { maxIterations: 2 },
    script: [weatherToolUse('toolu_01Loop', '北京'), weatherToolUse('toolu_02Loop', '北京'), weatherToolUse('toolu_03Loop', '北京')],
    turns: [{ text: '一直查北京的天气', expect: { status: 'iteration_limit', modelCalls: 2 } }],
    status: { state: 'ended', turnsCompleted: 1, modelCalls: 2, lastStopReason: 'tool_use' },
    requests: 2,
    activities: ['listTools', 'callClaude', 'callTool', 'callClaude'],
  },
  {
    // Issue 10: started with the search attributes, so the history holds the progress patch's
    // marker, its search attribute and memo upserts, and activity summaries; two turns, the second
    // with two tools at once.
    name: 'progress-metadata',
    servers: () => [weatherServer()],
    options: {},
    startedWithProgress: true,
    script: [
      weatherToolUse('toolu_01Prog', '北京'),
      endTurn('北京晴。'),
      {
        kind: 'message',
        content: [
          { type: 'tool_use', id: 'toolu_02Prog', name: 'get_weather', input: { city: '上海' } },
          { type: 'tool_use', id: 'toolu_03Prog', name: 'get_weather', input: { city: '广州' } },
        ],
        stop_reason: 'tool_use',
      },
      endTurn('上海多云，广州有雨。'),
    ],
    turns: [
      { text: '北京天气', expect: { status: 'completed', text: '北京晴。', modelCalls: 2, toolCalls: 1 } },
      { text: '上海和广州呢', expect: { status: 'completed', text: '上海多云，广州有雨。', modelCalls: 2, toolCalls: 2 } },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 4, toolCalls: 3, toolErrors: 0, hostToolErrors: 0 },
    requests: 4,
    activities: [
      'listTools', 'callClaude', 'callTool', 'callClaude',
      'listTools', 'callClaude', 'callTool', 'callTool', 'callClaude',
    ],
  },
  {
    // pause_turn: the loop calls Claude again with the paused turn, which joins the same assistant message.
    name: 'pause-turn',
    servers: () => [weatherServer()],
    options: {},
    script: [{ kind: 'message', content: [{ type: 'text', text: '让我想想。' }], stop_reason: 'pause_turn' }, endTurn('想好了。')],
    turns: [{ text: '慢慢想', expect: { status: 'completed', text: '想好了。', modelCalls: 2, toolCalls: 0 } }],
    status: { state: 'ended', turnsCompleted: 1, modelCalls: 2, lastStopReason: 'end_turn' },
    requests: 2,
    activities: ['listTools', 'callClaude', 'callClaude'],
  },
  {
    // A 400 "prompt is too long": the strategy escalates (a patched() marker) and the call is made once more.
    name: 'prompt-too-long',
    servers: () => [weatherServer()],
    options: {},
    script: [
      { kind: 'error', status: 400, errorType: 'invalid_request_error', message: 'prompt is too long: 212345 tokens > 200000 maximum' },
      endTurn('短一点了。'),
    ],
    turns: [{ text: '你好', expect: { status: 'completed', text: '短一点了。', modelCalls: 1, toolCalls: 0 } }],
    status: { state: 'ended', turnsCompleted: 1, modelCalls: 1, lastStopReason: 'end_turn' },
    requests: 2,
    activities: ['listTools', 'callClaude', 'callClaude'],
  },
  {
    // summarize:1: before the second turn's call, the first turn is folded into a summary (summarizeContext).
    name: 'summarize',
    servers: () => [weatherServer()],
    options: { context: { kind: 'summarize', keepRecentTurns: 1 } },
    script: [endTurn('第一个回答。'), endTurn('用户打了招呼，助手回答了。'), endTurn('第二个回答。')],
    turns: [
      { text: '你好', expect: { status: 'completed', text: '第一个回答。', modelCalls: 1 } },
      { text: '再说一次', expect: { status: 'completed', text: '第二个回答。', modelCalls: 1 } },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 2 },
    requests: 3,
    activities: ['listTools', 'callClaude', 'listTools', 'summarizeContext', 'callClaude'],
  },
  {
    // The context guard: the first reply's usage (900 of a 1000-token window) trips it, so the call
    // after the tool result goes out with the escalated strategy (placeholder_tool_results:2).
    name: 'guard-escalation',
    servers: () => [weatherServer()],
    options: { contextWindow: 1000 },
    script: [
      {
        kind: 'message',
        content: [{ type: 'tool_use', id: 'toolu_guard_01', name: 'get_weather', input: { city: '北京' } }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 880, output_tokens: 20 },
      },
      endTurn('北京今天晴。'),
      endTurn('好的。'),
    ],
    turns: [
      { text: '北京今天天气怎么样？', expect: { status: 'completed', text: '北京今天晴。', modelCalls: 2, toolCalls: 1 } },
      { text: '谢谢', expect: { status: 'completed', text: '好的。', modelCalls: 1 } },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 3, lastStopReason: 'end_turn' },
    requests: 3,
    activities: ['listTools', 'callClaude', 'callTool', 'callClaude', 'listTools', 'callClaude'],
  },
  {
    // A turn with a tool call, continue-as-new, then a turn in the new run: the recorded (last) run
    // starts from the carried state (messages, catalogue, given tool names, accepted turn ids).
    name: 'continue-as-new',
    servers: () => [weatherServer()],
    options: { continueAsNewAfterEvents: 10 },
    script: [weatherToolUse('toolu_can_01', '北京'), endTurn('北京今天晴。'), endTurn('不客气。')],
    turns: [
      { text: '北京今天天气怎么样？', expect: { status: 'completed', text: '北京今天晴。', modelCalls: 2, toolCalls: 1 } },
      { text: '谢谢', expect: { status: 'completed', text: '不客气。', modelCalls: 1, toolCalls: 0 } },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 3, lastStopReason: 'end_turn' },
    requests: 3,
    activities: ['listTools', 'callClaude'],
    continuesAsNewAfterTurn: 1,
  },
  {
    // Tool approval (issue 10, patch 'tool-approval'): one reply with four calls: `add` (auto) runs at
    // once, `fail` (deny policy) never runs, `slow_echo` b is approved and runs, a is denied by the
    // user; the search attribute McpHostWaitingApproval goes true and back to false.
    name: 'tool-approval',
    servers: () => [tsServer('lab', 'test/fixtures/lab-server.ts', {}, { approval: 'ask', toolApproval: { add: 'auto', fail: 'deny' } })],
    options: {},
    startedWithProgress: true,
    script: [
      {
        kind: 'message',
        content: [
          { type: 'tool_use', id: 'toolu_appr_a', name: 'slow_echo', input: { text: 'a', ms: 0 } },
          { type: 'tool_use', id: 'toolu_appr_add', name: 'add', input: { a: 1, b: 2 } },
          { type: 'tool_use', id: 'toolu_appr_fail', name: 'fail', input: { message: 'never' } },
          { type: 'tool_use', id: 'toolu_appr_b', name: 'slow_echo', input: { text: 'b', ms: 0 } },
        ],
        stop_reason: 'tool_use',
      },
      endTurn('b ran; a was declined.'),
    ],
    turns: [
      {
        text: 'four calls',
        approvals: [
          { approve: ['toolu_appr_b'] },
          { deny: ['toolu_appr_a'], reason: 'not now' },
        ],
        expect: { status: 'completed', text: 'b ran; a was declined.', modelCalls: 2, toolCalls: 4 },
      },
    ],
    status: { state: 'ended', turnsCompleted: 1, modelCalls: 2, toolCalls: 4, toolErrors: 0, hostToolErrors: 2 },
    requests: 2,
    activities: ['listTools', 'callClaude', 'callTool', 'callTool', 'callClaude'],
  },
  {
    // Claude calls carry the messages added since the previous call (issue 11, patch
    // 'claude-input-carries-added-messages'): two turns, the second with a tool call, so the inputs
    // carry [user], then [assistant, user] … each from where the previous call left off.
    name: 'claude-added-messages',
    servers: () => [weatherServer()],
    options: {},
    script: [endTurn('你好。'), weatherToolUse('toolu_added_01', '北京'), endTurn('北京今天晴。')],
    turns: [
      { text: '你好', expect: { status: 'completed', text: '你好。', modelCalls: 1, toolCalls: 0 } },
      { text: '北京今天天气怎么样？', expect: { status: 'completed', text: '北京今天晴。', modelCalls: 2, toolCalls: 1 } },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 3, toolCalls: 1 },
    requests: 3,
    activities: ['listTools', 'callClaude', 'listTools', 'callClaude', 'callTool', 'callClaude'],
  },
  {
    // Fast tools (issue 11, mcp.json `fastTools`): one reply calling `add` (fast: a local activity,
    // recorded as a marker) and `slow_echo` (not fast: a callTool activity); no patch, the route
    // recorded in the listTools result decides.
    name: 'fast-tool',
    servers: () => [tsServer('lab', 'test/fixtures/lab-server.ts', {}, { fastTools: ['add'] })],
    options: {},
    script: [
      {
        kind: 'message',
        content: [
          { type: 'tool_use', id: 'toolu_fast_add', name: 'add', input: { a: 1, b: 2 } },
          { type: 'tool_use', id: 'toolu_fast_echo', name: 'slow_echo', input: { text: 'x', ms: 0 } },
        ],
        stop_reason: 'tool_use',
      },
      endTurn('3 and echo: x.'),
    ],
    turns: [{ text: 'add and echo', expect: { status: 'completed', text: '3 and echo: x.', modelCalls: 2, toolCalls: 2 } }],
    status: { state: 'ended', turnsCompleted: 1, modelCalls: 2, toolCalls: 2, toolErrors: 0, hostToolErrors: 0 },
    requests: 2,
    activities: ['listTools', 'callClaude', 'callTool', 'callClaude'],
  },
  {
    // One patch marker per run (issue 11, src/workflows/patches.ts): started with the search
    // attributes, two turns, the second with a tool call, so the run reaches both the progress and
    // the added-messages patches; it records the combined patch's marker alone.
    name: 'combined-patch',
    servers: () => [weatherServer()],
    options: {},
    startedWithProgress: true,
    script: [endTurn('你好。'), weatherToolUse('toolu_combined_01', '北京'), endTurn('北京今天晴。')],
    turns: [
      { text: '你好', expect: { status: 'completed', text: '你好。', modelCalls: 1, toolCalls: 0 } },
      { text: '北京今天天气怎么样？', expect: { status: 'completed', text: '北京今天晴。', modelCalls: 2, toolCalls: 1 } },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 3, toolCalls: 1, toolErrors: 0, hostToolErrors: 0 },
    requests: 3,
    activities: ['listTools', 'callClaude', 'listTools', 'callClaude', 'callTool', 'callClaude'],
  },
  {
    // Servers that ask back on 2026-07-28 (issue 27): `book_table` answers `input_required` with a
    // form; the workflow keeps the wait, the user accepts (the schema's defaults fill the rest), and
    // a second callTool sends the answer. A second turn's `summarize` asks for a completion, which
    // the server's `sampling: "auto"` lets the sampleMessage activity answer at once.
    name: 'elicitation-2026',
    servers: () => [
      tsServer('asking', 'test/fixtures/asking-server.ts', {}, { protocolVersion: '2026-07-28', sampling: 'auto' }),
    ],
    options: {},
    startedWithProgress: true,
    script: [
      { kind: 'message', content: [{ type: 'tool_use', id: 'toolu_ask26_form', name: 'book_table', input: {} }], stop_reason: 'tool_use' },
      endTurn('Booked.'),
      { kind: 'message', content: [{ type: 'tool_use', id: 'toolu_ask26_sample', name: 'summarize', input: { text: 'durable' } }], stop_reason: 'tool_use' },
      endTurn('Durable.'),
      endTurn('Summarized.'),
    ],
    turns: [
      { text: 'book', inputs: [{ server: 'asking', action: 'accept', content: { name: 'Ada' } }], expect: { status: 'completed', text: 'Booked.', modelCalls: 2, toolCalls: 1 } },
      { text: 'summarize', expect: { status: 'completed', text: 'Summarized.', modelCalls: 2, toolCalls: 1 } },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 4, toolCalls: 2, toolErrors: 0, hostToolErrors: 0 },
    requests: 5,
    activities: ['listTools', 'callClaude', 'callTool', 'callTool', 'callClaude', 'listTools', 'callClaude', 'callTool', 'sampleMessage', 'callTool', 'callClaude'],
  },
  {
    // Servers that ask back on the 2025 wire (issue 27): `book_table`'s server sends
    // `elicitation/create` during the call; the activity holding the call signals `inputRequested`,
    // the user declines, and the activity reads the answer (`inputResponses` query) and completes.
    name: 'elicitation-2025',
    servers: () => [tsServer('asking', 'test/fixtures/asking-server.ts', {}, { protocolVersion: '2025-11-25' })],
    options: {},
    startedWithProgress: true,
    script: [
      { kind: 'message', content: [{ type: 'tool_use', id: 'toolu_ask25_form', name: 'book_table', input: {} }], stop_reason: 'tool_use' },
      endTurn('Not booked.'),
    ],
    turns: [{ text: 'book', inputs: [{ server: 'asking', action: 'decline' }], expect: { status: 'completed', text: 'Not booked.', modelCalls: 2, toolCalls: 1 } }],
    status: { state: 'ended', turnsCompleted: 1, modelCalls: 2, toolCalls: 1, toolErrors: 0, hostToolErrors: 0 },
    requests: 2,
    activities: ['listTools', 'callClaude', 'callTool', 'callClaude'],
  },
  {
    // Resources and prompts (issue 28): a turn with an attached resource, in which Claude lists the
    // library's resources and reads one with the host's tools (the useResources activity); then a
    // prompt run as a turn, whose messages go into the history as they are.
    name: 'resources',
    servers: () => [tsServer('library', 'test/fixtures/library-server.ts')],
    options: {},
    startedWithProgress: true,
    script: [
      {
        kind: 'message',
        content: [
          { type: 'tool_use', id: 'toolu_res_list', name: 'ListMcpResourcesTool', input: {} },
          { type: 'tool_use', id: 'toolu_res_read', name: 'ReadMcpResourceTool', input: { server: 'library', uri: 'library://notes/welcome.md' } },
        ],
        stop_reason: 'tool_use',
      },
      endTurn('It opens at nine.'),
      endTurn('It survives.'),
    ],
    turns: [
      {
        text: 'when does it open?',
        content: { attachments: [{ server: 'library', uri: 'library://images/dot.png', blocks: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=' } }] }] },
        expect: { status: 'completed', text: 'It opens at nine.', modelCalls: 2, toolCalls: 2 },
      },
      {
        text: '',
        content: {
          prompt: {
            server: 'library',
            name: 'review',
            messages: [
              { role: 'user', content: 'Review durability.' },
              { role: 'assistant', content: 'What about durability matters most to you?' },
              { role: 'user', content: 'Whether it survives a crash.' },
            ],
          },
        },
        expect: { status: 'completed', text: 'It survives.', modelCalls: 1, toolCalls: 0 },
      },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 3, toolCalls: 2, toolErrors: 0, hostToolErrors: 0 },
    requests: 3,
    activities: ['listTools', 'callClaude', 'useResources', 'useResources', 'callClaude', 'listTools', 'callClaude'],
  },
  {
    // Extended thinking (issue 29): a budget from the start, one turn with two tool rounds whose
    // replies lead with signed thinking blocks (one redacted); then `setThinking` to adaptive:high
    // (an update in the history) and a turn that goes out with it.
    name: 'thinking',
    servers: () => [weatherServer()],
    options: { thinking: { type: 'enabled', budgetTokens: 1024 }, maxTokens: 2048 },
    script: [
      { kind: 'message', content: [thought('Beijing first.'), { type: 'tool_use', id: 'toolu_think_01', name: 'get_weather', input: { city: '北京' } }], stop_reason: 'tool_use' },
      {
        kind: 'message',
        content: [{ type: 'redacted_thinking', data: 'EmwKAhgBEgyThinkingRedacted' }, thought('Now Shanghai.'), { type: 'tool_use', id: 'toolu_think_02', name: 'get_weather', input: { city: '上海' } }],
        stop_reason: 'tool_use',
      },
      { kind: 'message', content: [thought('Both are in.'), { type: 'text', text: '北京晴，上海多云。' }], stop_reason: 'end_turn' },
      { kind: 'message', content: [thought('A thank-you.'), { type: 'text', text: '不客气。' }], stop_reason: 'end_turn' },
    ],
    turns: [
      { text: '北京和上海天气怎么样？', expect: { status: 'completed', text: '北京晴，上海多云。', modelCalls: 3, toolCalls: 2 } },
      { text: '谢谢', setThinking: { type: 'adaptive', effort: 'high' }, expect: { status: 'completed', text: '不客气。', modelCalls: 1, toolCalls: 0 } },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 4, toolCalls: 2, toolErrors: 0, hostToolErrors: 0, thinking: 'adaptive:high' },
    requests: 4,
    activities: ['listTools', 'callClaude', 'callTool', 'callClaude', 'callTool', 'callClaude', 'listTools', 'callClaude'],
  },
  {
    // Tool search (issue 29): `toolSearch: 'on'`, so the tools go deferred beside the BM25 search
    // tool; the reply searches (the fake runs it and puts the tool_search_tool_result after it) and
    // calls the tool found with a plain tool_use; the search blocks stay in the history.
    name: 'tool-search',
    servers: () => [weatherServer()],
    options: { toolSearch: 'on' },
    script: [
      {
        kind: 'message',
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_search_01', name: 'tool_search_tool_bm25', input: { query: 'weather' } },
          { type: 'tool_use', id: 'toolu_search_01', name: 'get_weather', input: { city: '北京' } },
        ],
        stop_reason: 'tool_use',
      },
      { kind: 'message', content: [{ type: 'text', text: '北京晴。' }], stop_reason: 'end_turn' },
    ],
    turns: [{ text: '北京天气怎么样？', expect: { status: 'completed', text: '北京晴。', modelCalls: 2, toolCalls: 1 } }],
    status: { state: 'ended', turnsCompleted: 1, modelCalls: 2, toolCalls: 1, toolErrors: 0, hostToolErrors: 0 },
    requests: 2,
    activities: ['listTools', 'callClaude', 'callTool', 'callClaude'],
  },
  {
    // Server-side compaction (issue 29): `context: compact`; the first reply opens with a compaction
    // block (scripted, signed as the fake signs its own), so every later request starts at it; the
    // history keeps the first message too. Then `clear_tool_uses` for the next turn (an update).
    name: 'compaction',
    servers: () => [weatherServer()],
    options: { context: { kind: 'compact', triggerTokens: 50_000 } },
    script: [
      {
        kind: 'message',
        content: [
          { type: 'compaction', content: COMPACTION_SUMMARY, encrypted_content: null, signature: signCompaction(COMPACTION_SUMMARY) },
          { type: 'tool_use', id: 'toolu_compact_01', name: 'get_weather', input: { city: '北京' } },
        ],
        stop_reason: 'tool_use',
        usage: { iterations: [{ type: 'compaction', input_tokens: 61_000, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }] } as never,
      },
      { kind: 'message', content: [{ type: 'text', text: '北京晴。' }], stop_reason: 'end_turn' },
      { kind: 'message', content: [{ type: 'text', text: '不客气。' }], stop_reason: 'end_turn' },
    ],
    turns: [
      { text: '（一份很长的气象记录）北京今天天气怎么样？', expect: { status: 'completed', text: '北京晴。', modelCalls: 2, toolCalls: 1 } },
      { text: '谢谢', context: { kind: 'clear_tool_uses', keepToolUses: 1 }, expect: { status: 'completed', text: '不客气。', modelCalls: 1, toolCalls: 0 } },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 3, toolCalls: 1, toolErrors: 0, hostToolErrors: 0 },
    requests: 3,
    activities: ['listTools', 'callClaude', 'callTool', 'callClaude', 'listTools', 'callClaude'],
  },
  {
    // Server tools: `serverTools: web_search` sends the API's web search beside the MCP tools. Turn
    // 1: the reply pauses (pause_turn) after a search; its server_tool_use and web_search_tool_result
    // stay in the history exactly and go back; the continuation joins the same assistant message. Turn
    // 2: a search deferred beside a tool_use (the API runs it once the tool results come back alone),
    // its result opening the next reply. No MCP tool runs for a search; the status counts them.
    name: 'server-tools',
    servers: () => [weatherServer()],
    options: { serverTools: [{ name: 'web_search', maxUses: 5 }] },
    script: [
      {
        kind: 'message',
        content: [{ type: 'text', text: '我来搜一下。' }, webSearchUse('srvtoolu_replay_01', 'durable execution'), webSearchResult('srvtoolu_replay_01')],
        stop_reason: 'pause_turn',
      },
      { kind: 'message', content: [citedText('Durable execution 让程序在故障中继续运行。')], stop_reason: 'end_turn' },
      {
        kind: 'message',
        content: [webSearchUse('srvtoolu_replay_02', '北京 新闻'), { type: 'tool_use', id: 'toolu_replay_01', name: 'get_weather', input: { city: '北京' } }],
        stop_reason: 'tool_use',
      },
      { kind: 'message', content: [webSearchResult('srvtoolu_replay_02'), { type: 'text', text: '北京晴，新闻也查好了。' }], stop_reason: 'end_turn' },
    ],
    turns: [
      { text: '什么是 durable execution？', expect: { status: 'completed', text: 'Durable execution 让程序在故障中继续运行。', modelCalls: 2, toolCalls: 0 } },
      { text: '北京天气呢？顺便搜一下新闻。', expect: { status: 'completed', text: '北京晴，新闻也查好了。', modelCalls: 2, toolCalls: 1 } },
    ],
    status: { state: 'ended', turnsCompleted: 2, modelCalls: 4, toolCalls: 1, toolErrors: 0, hostToolErrors: 0 },
    requests: 4,
    activities: ['listTools', 'callClaude', 'callClaude', 'listTools', 'callClaude', 'callTool', 'callClaude'],
  },
  {
    // Cost control (issue 30): a token budget; the second turn's tool result would take the next
    // prompt past it, so the turn ends `budget_exceeded` before that Claude call; the `setBudget`
    // update raises it and the third turn runs, the stopped turn's result in its first message.
    name: 'budget',
    servers: () => [labServer()],
    options: { budget: { tokens: 4_000 } },
    script: [
      endTurn('你好。'),
      { kind: 'message', content: [{ type: 'tool_use', id: 'toolu_budget_01', name: 'blob', input: { seed: 'budget', size: 16_000 } }], stop_reason: 'tool_use' },
      endTurn('读完了。'),
    ],
    turns: [
      { text: '你好', expect: { status: 'completed', text: '你好。', modelCalls: 1, toolCalls: 0 } },
      { text: '读一下这份大文件', expect: { status: 'budget_exceeded', modelCalls: 1, toolCalls: 1 } },
      { text: '好了吗？', budget: { tokens: 100_000 }, expect: { status: 'completed', text: '读完了。', modelCalls: 1, toolCalls: 0 } },
    ],
    status: { state: 'ended', turnsCompleted: 3, modelCalls: 3, toolCalls: 1, toolErrors: 0, hostToolErrors: 0 },
    requests: 3,
    activities: ['listTools', 'callClaude', 'listTools', 'callClaude', 'callTool', 'listTools', 'callClaude'],
  },
];
