/**
 * The host's metrics: names, units, descriptions, histogram buckets and attribute keys, in one
 * place (docs/observability.md lists them). Where the OpenTelemetry GenAI and MCP semantic
 * conventions name a metric or an attribute, it is theirs (`gen_ai.client.token.usage`,
 * `mcp.client.operation.duration`, `gen_ai.token.type`…); the host's own are `mcp_host_*`.
 *
 * The Temporal runtime's Prometheus exporter refuses a dot in a metric or label name (it drops the
 * metric), so on Prometheus every dot becomes `_`, as an OpenTelemetry Collector would translate
 * them; OTLP gets the names as written. The host's own names have no dot, so the workflow's
 * counter (which cannot know the exporter) is named the same on both. Pure: the workflow imports it.
 */

/** How names are written for the exporter: as the conventions write them, or Prometheus-safe. */
export type MetricNaming = 'otel' | 'prometheus';

/** `name` as the exporter takes it: dots become underscores for Prometheus. */
export function exportedName(name: string, naming: MetricNaming): string {
  return naming === 'prometheus' ? name.replace(/\./g, '_') : name;
}

/** One instrument's definition. */
export interface MetricDefinition {
  name: string;
  unit: string;
  description: string;
  /** Explicit bucket boundaries of a histogram (the conventions' advice where they give one). */
  buckets?: readonly number[];
}

/** Tokens per call: the conventions' advised boundaries (powers of 4). */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
/** A model call's duration in seconds: the conventions' advice for gen_ai.client.operation.duration. */
const CLAUDE_SECONDS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
/** An MCP operation's duration in seconds: the conventions' advice for mcp.client.operation.duration. */
const MCP_SECONDS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** A call's estimated cost in USD. */
const USD_BUCKETS = [0.0001, 0.001, 0.01, 0.05, 0.1, 0.5, 1, 5];

/** The host's metrics. */
export const HOST_METRICS = {
  tokenUsage: {
    name: 'gen_ai.client.token.usage',
    unit: '{token}',
    description: 'Tokens of each Claude call, by gen_ai.token.type (input, output, cache_read, cache_creation)',
    buckets: TOKEN_BUCKETS,
  },
  claudeDuration: {
    name: 'gen_ai.client.operation.duration',
    unit: 's',
    description: 'Duration of each Claude call attempt (the count is the attempts; error.type on failed ones)',
    buckets: CLAUDE_SECONDS,
  },
  claudeCost: {
    name: 'mcp_host_claude_cost_usd',
    unit: 'USD',
    description: 'Estimated cost of each Claude call at the default list prices (the sum is the spend)',
    buckets: USD_BUCKETS,
  },
  toolDuration: {
    name: 'mcp.client.operation.duration',
    unit: 's',
    description: 'Duration of each MCP tools/call attempt, by server, tool and outcome (ok, is_error, input_required, failed)',
    buckets: MCP_SECONDS,
  },
  transcriptCache: {
    name: 'mcp_host_transcript_cache_reads',
    unit: '{read}',
    description: "Transcript reads of the Claude activities: hit (this worker's cache and the call's added messages sufficed) or miss (the workflow was queried)",
  },
  turns: {
    name: 'mcp_host_turns',
    unit: '{turn}',
    description: 'Turns ended, by status (completed, failed, cancelled, budget_exceeded…)',
  },
  conversationsOpen: {
    name: 'mcp_host_conversations_open',
    unit: '{conversation}',
    description: 'Open conversations of the task queue (visibility count)',
  },
  turnsRunning: {
    name: 'mcp_host_turns_running',
    unit: '{conversation}',
    description: 'Conversations with a turn running (McpHostState = running; visibility count)',
  },
  approvalsWaiting: {
    name: 'mcp_host_approvals_waiting',
    unit: '{conversation}',
    description: 'Conversations waiting for a tool approval (McpHostWaitingApproval; visibility count)',
  },
  inputsWaiting: {
    name: 'mcp_host_input_requests_waiting',
    unit: '{conversation}',
    description: "Conversations waiting for the answer to a server's request for input (McpHostWaitingInput; visibility count)",
  },
} as const satisfies Record<string, MetricDefinition>;

/** Attribute (label) keys. */
export const METRIC_ATTRIBUTES = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  tokenType: 'gen_ai.token.type',
  errorType: 'error.type',
  mcpMethod: 'mcp.method.name',
  toolName: 'gen_ai.tool.name',
  /** The server's name in mcp.json (the conventions have no attribute for it). */
  server: 'mcp.server.name',
  outcome: 'outcome',
  result: 'result',
  status: 'status',
  namespace: 'namespace',
  taskQueue: 'task_queue',
} as const;

/** A tool call's outcome: a result, a tool error result, a request for input, or a failed attempt. */
export type ToolOutcome = 'ok' | 'is_error' | 'input_required' | 'failed';

/** The histogram bucket overrides the runtime's exporter takes, keyed by exported name. */
export function histogramBuckets(naming: MetricNaming): Record<string, number[]> {
  const histograms = Object.values(HOST_METRICS).filter((metric: MetricDefinition) => metric.buckets !== undefined);
  return Object.fromEntries(histograms.map((metric: MetricDefinition) => [exportedName(metric.name, naming), [...(metric.buckets ?? [])]]));
}
