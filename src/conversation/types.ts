/**
 * The conversation's data: what the workflow holds, what activities exchange with it, what the
 * client reads. Pure types only: this module is imported by the workflow sandbox.
 */
import type { ContentBlockParam, MessageParam, StopReason, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { CacheOptions } from '../claude/cache-breakpoints';
import type { ContextStrategy } from '../context/context-strategy';
import type { PriceTable } from '../models/model-prices';
import type { CostEstimate } from './cost';
import type { ApprovalMode } from '../approval/approval-mode';
import type { PendingApproval } from '../approval/pending-approvals';
import type { PendingInput } from '../input/input-requests';
import type { TurnContent } from './turn-content';
import type { Thinking } from './thinking';
import type { Budget, BudgetLeft } from './budget';
import type { ToolSearchMode } from '../claude/tool-search';
import type { ServerToolSpec } from '../claude/server-tools';
import type { UsageTotals } from './usage-totals';

export type { ContentBlockParam, MessageParam, StopReason, Tool };
/** Token usage summed over a conversation, with its server tool calls (src/conversation/usage-totals.ts). */
export type { UsageTotals };

/** Per-conversation settings, fixed when the conversation starts (the client fills defaults). */
export interface ConversationOptions {
  model: string;
  maxTokens: number;
  /** Sent as the top-level `system` field, never as a message (seed §3.1, S7). */
  system?: string;
  /** Model calls allowed in one user turn before the loop stops it (seed §8.3: e.g. 10). */
  maxIterations: number;
  /** A tool call that stops heartbeating this long is retried elsewhere (worker crash detection). */
  toolHeartbeatTimeoutMs: number;
  /** Same for the Claude call. */
  modelHeartbeatTimeoutMs: number;
  /**
   * Continue-as-new once the run's history has this many events, even before the server suggests
   * it (it does at about 4 MB or 4,096 events). Unset: only when suggested.
   */
  continueAsNewAfterEvents?: number;
  /** What of the history is sent to Claude (seed §7.3); the stored history is never cut. Default: keep all. */
  context?: ContextStrategy;
  /** `cache_control` breakpoints on tools, system and the moving end. Default: on. */
  promptCache?: CacheOptions;
  /** The model's context window in tokens, when the built-in table does not know the model. */
  contextWindow?: number;
  /** Fraction of the window at which the guard switches to a stronger context strategy (default 0.8). */
  compactionThreshold?: number;
  /** Prices for the cost estimate; default: the built-in table. */
  prices?: PriceTable;
  /**
   * Roots of this conversation (`start --root URI`), offered to every server beside the server's own
   * (mcp.json `roots`) when it asks for `roots/list`.
   */
  roots?: string[];
  /**
   * How long a server's request for input (a form, a URL, leave to sample) waits for the user before
   * the host declines it by itself, for unattended runs. Unset: as long as it takes.
   */
  inputTimeoutMs?: number;
  /**
   * Claude's thinking (src/conversation/thinking.ts): a token budget or adaptive. Unset: no
   * `thinking` field is sent (the model's default). Changeable while the conversation runs (the
   * `setThinking` update), from its next turn on; what it is now is the state's, not this.
   */
  thinking?: Thinking;
  /**
   * A spending limit in dollars and/or tokens (src/conversation/budget.ts): a turn stops before the
   * Claude call that would pass it (`budget_exceeded`). Changeable while the conversation runs (the
   * `setBudget` update); what it is now is the state's, not this.
   */
  budget?: Budget;
  /**
   * The API's tool search (src/claude/tool-search.ts): `on` defers the catalogue's tools beside the
   * search tool, `off` never, `auto` (unset) once their definitions pass 10% of the context window.
   */
  toolSearch?: ToolSearchMode;
  /**
   * Claude's server tools (src/claude/server-tools.ts): web search, web fetch, code execution, run
   * by the API beside the MCP tools. Unset or empty: none.
   */
  serverTools?: ServerToolSpec[];
}

/** Where an MCP tool lives: the Claude-visible name maps back to exactly this. */
export interface ToolRoute {
  server: string;
  /** The exact MCP tool name, as `tools/list` gave it. */
  name: string;
  /** MCP `annotations.idempotentHint`: decides how many attempts a failed call gets. */
  idempotent: boolean;
  /** Per-server call timeout from the config. */
  timeoutMs: number;
  /**
   * Tool approval from the config (`approval`, `toolApproval`): `ask` waits for the user, `deny`
   * never runs. Absent means `auto`, so routes of servers without approval settings are unchanged.
   */
  approval?: Exclude<ApprovalMode, 'auto'>;
  /**
   * A fast tool from the config (`fast`, `fastTools`): called as a local activity
   * (src/errors/tool-retry-policy.ts has the semantics). Absent when not fast, so routes of servers
   * without the setting, and the catalogue digests and histories that hold them, are unchanged.
   */
  fast?: true;
  /**
   * What the host does when the server asks for a form or a URL visit (mcp.json `elicitation`):
   * `decline` declines at once. Absent means `ask` (the user answers), so routes are unchanged.
   */
  elicitation?: 'decline';
  /**
   * What the host does when the server asks for a completion (mcp.json `sampling`): `auto` lets
   * Claude answer, `deny` refuses. Absent means `ask` (the user allows or refuses first).
   */
  sampling?: 'auto' | 'deny';
  /**
   * A tool of the host's own rather than of a server (src/mcp/resources/host-resource-tools.ts): its
   * calls go to the `useResources` activity. Absent for every server's tool.
   */
  host?: 'list_resources' | 'read_resource';
}

/** One route of the catalogue: the tool name Claude sees, and where that tool lives. */
export type ToolRouteEntry = [claudeName: string, route: ToolRoute];

/**
 * Routes as catalogues recorded before `ToolRouteEntry` carried them: an object keyed by Claude tool
 * name. Still read (histories and continue-as-new inputs hold it), never written.
 */
export type RecordedToolRoutes = Record<string, ToolRoute>;

/** The merged tool list of every server, as Claude sees it, with the way back to MCP (S5). */
export interface ToolCatalog {
  /** Digest of `tools` and `routes`: lets activities cache the catalogue and detect a change. */
  digest: string;
  tools: Tool[];
  /**
   * Claude tool name → route, as pairs: a catalogue travels as JSON (activity result, workflow state,
   * continue-as-new), which a `Map` does not survive, and a plain object keyed by names that servers
   * and Claude choose answers `constructor` or `toString` from its prototype, while `__proto__`
   * replaces the prototype. Read through `findToolRoute` and `toolRouteEntries`
   * (`src/conversation/tool-routes.ts`), which also read the recorded object form.
   */
  routes: ToolRouteEntry[] | RecordedToolRoutes;
  /**
   * Set when the conversation renamed the listed catalogue to keep the names it gave out
   * (`src/conversation/stable-tool-names.ts`): the digest the MCP layer listed it under.
   */
  sourceDigest?: string;
}

/** How one user turn ended. */
export type TurnStatus =
  | 'completed'
  | 'max_tokens'
  | 'stop_sequence'
  | 'refusal'
  | 'context_window_exceeded'
  | 'iteration_limit'
  | 'unknown_stop_reason'
  | 'failed'
  /** Cancelled by the user (`cancelTurn`): tool uses in flight answered by the host. */
  | 'cancelled'
  /** Stopped before the Claude call that would have passed the conversation's budget. */
  | 'budget_exceeded';

/** The outcome of one user turn: what the update returns and the status keeps. */
export interface TurnResult {
  turnId: number;
  status: TurnStatus;
  /** The final assistant text of the turn (text blocks of the last reply joined). */
  text: string;
  stopReason: string | null;
  modelCalls: number;
  toolCalls: number;
  /** Set when status is `failed` (or another stop needs explaining). */
  error?: string;
}

/** A user turn waiting for the loop. */
export interface PendingTurn {
  turnId: number;
  text: string;
  /** Resources attached to the turn and a prompt run as it (src/conversation/turn-content.ts). */
  content?: TurnContent;
  /** Sent by the update, which waits for the result; a signal's result is only in the status. */
  awaited: boolean;
  /** The sender's W3C trace context (src/workflows/turn-trace.ts): the turn's span goes under it. */
  trace?: Record<string, string>;
}

/** The status query's answer. */
export interface ConversationStatus {
  state: 'idle' | 'running' | 'ended';
  turnsCompleted: number;
  currentTurn: number | null;
  pendingTurns: number;
  modelCalls: number;
  toolCalls: number;
  toolErrors: number;
  /** Tool calls the host itself answered with an error (unknown tool, rejected arguments, server down). */
  hostToolErrors: number;
  usage: UsageTotals;
  lastStopReason: string | null;
  lastTurn: TurnResult | null;
  messageCount: number;
  toolCount: number;
  /** Tool calls of the running turn waiting for the user's approve or deny (`approval: "ask"`), oldest first. */
  pendingApprovals: PendingApproval[];
  /** Requests from servers (a form, a URL, leave to sample) waiting for the user's answer, oldest first. */
  pendingInputs?: PendingInput[];
  /** Completions Claude made for servers (sampling): how many, and their tokens (also in `usage`). */
  sampling?: { calls: number; usage: UsageTotals };
  /** Claude's thinking for the next turns, in the `--thinking` form (`adaptive:high`, `4096`); absent when off. */
  thinking?: string;
  /** Tool search: `on`, `off` or `auto` (on once the tools pass 10% of the context window). */
  toolSearch?: ToolSearchMode;
  /** The spending limit and what is left of it (negative once passed); absent without one. */
  budget?: Budget & { left: BudgetLeft };
  /** An estimate from the usage totals and the price table. */
  cost: CostEstimate;
  context: {
    /** The strategy in force (it only ever gets stronger, when the guard trips). */
    strategy: string;
    /** Messages the current summary stands for (summarize strategy). */
    summaryCovers: number;
    /** Tokens of the last prompt, cached parts included. */
    lastPromptTokens: number;
    contextWindow: number;
    /** Server-side compactions the history holds (`compact`); absent when none. */
    compactions?: number;
  };
}

/** What the workflow returns when the conversation ends. */
export interface ConversationSummary {
  status: ConversationStatus;
  messages: number;
}

/** A small reference the Claude activity resolves against the workflow (no conversation in inputs). */
export interface TranscriptRef {
  workflowId: string;
  runId: string;
  /** How many messages the request carries: messages[0, messageCount). */
  messageCount: number;
  /** Rolling digest of those messages, checked by the activity before it calls Claude. */
  digest: string;
}
