/**
 * Records the host's metrics (src/telemetry/metric-names.ts) on a Temporal `MetricMeter`: the
 * runtime's, so they leave by the exporter that carries the SDK's own metrics. Worker-side only:
 * activities never replay, so nothing is counted twice by a replay. Each record is a few object
 * literals and one call into the runtime per instrument; with metrics off the meter is the SDK's
 * no-op and nothing else happens. Labels hold names (model, server, tool, failure type), never
 * arguments, results or a secret.
 */
import { noopMetricMeter, type MetricMeter, type MetricCounter, type MetricGauge, type MetricHistogram, type MetricTags } from '@temporalio/common';
import type { ReplyUsage } from '../claude/reply-usage';
import { estimateCost } from '../conversation/cost';
import { addUsage, NO_USAGE } from '../conversation/usage-totals';
import { exportedName, HOST_METRICS, METRIC_ATTRIBUTES, type MetricDefinition, type MetricNaming, type ToolOutcome } from './metric-names';

/** One Claude call attempt, as the activity saw it. */
export interface ClaudeCallRecord {
  /** The model the request named (the conversation's). */
  requestModel: string;
  /** The model the reply named; absent when the call failed. */
  responseModel?: string;
  seconds: number;
  /** The reply's usage; absent when the call failed (a failed attempt has no tokens to count). */
  usage?: ReplyUsage;
  /** The failure type (`claude.overloaded_error`…), when the attempt failed. */
  errorType?: string;
}

/** One MCP tools/call attempt. */
export interface ToolCallRecord {
  /** The server's name in mcp.json. */
  server: string;
  /** The MCP tool name. */
  tool: string;
  seconds: number;
  outcome: ToolOutcome;
  /** `tool_error` for an `is_error` result (the conventions' value), the failure type for a failed attempt. */
  errorType?: string;
}

/** What the visibility store counts of a task queue's conversations; undefined when it cannot tell. */
export interface ConversationCounts {
  open: number;
  turnsRunning?: number;
  approvalsWaiting?: number;
  inputsWaiting?: number;
}

/** The host's instruments on one meter. */
export class HostMetrics {
  /** Metrics off: every record does nothing (and the gauges are not counted). */
  static readonly off: HostMetrics = new HostMetrics(noopMetricMeter, 'otel', false);

  private readonly key: (attribute: string) => string;
  private readonly tokens: MetricHistogram;
  private readonly claudeSeconds: MetricHistogram;
  private readonly cost: MetricHistogram;
  private readonly toolSeconds: MetricHistogram;
  private readonly transcriptReads: MetricCounter;
  private readonly gauges: Record<keyof ConversationCounts, MetricGauge>;
  private readonly hitTags: MetricTags;
  private readonly missTags: MetricTags;

  /**
   * @param meter Where the values go (the runtime's meter in a worker, a fake in tests).
   * @param naming How the exporter takes names (Prometheus: no dots).
   * @param enabled False when nothing exports them: the worker then counts no gauges.
   */
  constructor(
    meter: MetricMeter,
    naming: MetricNaming,
    readonly enabled = true,
  ) {
    this.key = (attribute) => exportedName(attribute, naming);
    const histogram = (metric: MetricDefinition, type: 'int' | 'float'): MetricHistogram =>
      meter.createHistogram(exportedName(metric.name, naming), type, metric.unit, metric.description);
    const gauge = (metric: MetricDefinition): MetricGauge => meter.createGauge(exportedName(metric.name, naming), 'int', metric.unit, metric.description);
    this.tokens = histogram(HOST_METRICS.tokenUsage, 'int');
    this.claudeSeconds = histogram(HOST_METRICS.claudeDuration, 'float');
    this.cost = histogram(HOST_METRICS.claudeCost, 'float');
    this.toolSeconds = histogram(HOST_METRICS.toolDuration, 'float');
    const reads = HOST_METRICS.transcriptCache;
    this.transcriptReads = meter.createCounter(exportedName(reads.name, naming), reads.unit, reads.description);
    this.gauges = {
      open: gauge(HOST_METRICS.conversationsOpen),
      turnsRunning: gauge(HOST_METRICS.turnsRunning),
      approvalsWaiting: gauge(HOST_METRICS.approvalsWaiting),
      inputsWaiting: gauge(HOST_METRICS.inputsWaiting),
    };
    this.hitTags = { [this.key(METRIC_ATTRIBUTES.result)]: 'hit' };
    this.missTags = { [this.key(METRIC_ATTRIBUTES.result)]: 'miss' };
  }

  /**
   * A Claude call attempt: its duration, and on success its tokens by kind (as `status` adds them
   * up: a compaction's tokens included) and its estimated cost at the default list prices.
   */
  recordClaudeCall(call: ClaudeCallRecord): void {
    const k = this.key;
    const base: MetricTags = {
      [k(METRIC_ATTRIBUTES.operation)]: 'chat',
      [k(METRIC_ATTRIBUTES.provider)]: 'anthropic',
      [k(METRIC_ATTRIBUTES.requestModel)]: call.requestModel,
      ...(call.responseModel !== undefined ? { [k(METRIC_ATTRIBUTES.responseModel)]: call.responseModel } : {}),
    };
    this.claudeSeconds.record(call.seconds, call.errorType !== undefined ? { ...base, [k(METRIC_ATTRIBUTES.errorType)]: call.errorType } : base);
    if (call.usage === undefined) return;
    const totals = addUsage(NO_USAGE, call.usage);
    const tokenType = k(METRIC_ATTRIBUTES.tokenType);
    this.tokens.record(totals.inputTokens, { ...base, [tokenType]: 'input' });
    this.tokens.record(totals.outputTokens, { ...base, [tokenType]: 'output' });
    this.tokens.record(totals.cacheReadInputTokens, { ...base, [tokenType]: 'cache_read' });
    this.tokens.record(totals.cacheCreationInputTokens, { ...base, [tokenType]: 'cache_creation' });
    const cost = estimateCost(totals, call.requestModel);
    if (cost.priced) this.cost.record(cost.usd, { [k(METRIC_ATTRIBUTES.provider)]: 'anthropic', [k(METRIC_ATTRIBUTES.requestModel)]: call.requestModel });
  }

  /** An MCP tools/call attempt: its duration, server, tool and outcome. */
  recordToolCall(call: ToolCallRecord): void {
    const k = this.key;
    this.toolSeconds.record(call.seconds, {
      [k(METRIC_ATTRIBUTES.mcpMethod)]: 'tools/call',
      [k(METRIC_ATTRIBUTES.operation)]: 'execute_tool',
      [k(METRIC_ATTRIBUTES.server)]: call.server,
      [k(METRIC_ATTRIBUTES.toolName)]: call.tool,
      [k(METRIC_ATTRIBUTES.outcome)]: call.outcome,
      ...(call.errorType !== undefined ? { [k(METRIC_ATTRIBUTES.errorType)]: call.errorType } : {}),
    });
  }

  /** A Claude call's transcript read: from the worker's cache alone (hit), or with queries (miss). */
  recordTranscriptRead(hit: boolean): void {
    this.transcriptReads.add(1, hit ? this.hitTags : this.missTags);
  }

  /** The visibility counts of a task queue's conversations (gauges; an unknown count is left as it was). */
  recordConversations(counts: ConversationCounts, where: { namespace: string; taskQueue: string }): void {
    const tags = { [METRIC_ATTRIBUTES.namespace]: where.namespace, [METRIC_ATTRIBUTES.taskQueue]: where.taskQueue };
    for (const name of Object.keys(this.gauges) as Array<keyof ConversationCounts>) {
      const value = counts[name];
      if (value !== undefined) this.gauges[name].set(value, tags);
    }
  }
}
