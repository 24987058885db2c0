import { HostMetrics } from '../../src/telemetry/host-metrics';
import { exportedName, histogramBuckets, HOST_METRICS } from '../../src/telemetry/metric-names';
import { RecordingMeter } from '../support/recording-meter';

describe('HostMetrics', () => {
  it('makes its instruments with the conventions’ names and units on OTLP, without dots on Prometheus', () => {
    const otel = new RecordingMeter();
    new HostMetrics(otel, 'otel');
    expect(otel.made).toEqual(
      expect.arrayContaining([
        { kind: 'histogram', name: 'gen_ai.client.token.usage', unit: '{token}', valueType: 'int' },
        { kind: 'histogram', name: 'gen_ai.client.operation.duration', unit: 's', valueType: 'float' },
        { kind: 'histogram', name: 'mcp.client.operation.duration', unit: 's', valueType: 'float' },
        { kind: 'histogram', name: 'mcp_host_claude_cost_usd', unit: 'USD', valueType: 'float' },
        { kind: 'counter', name: 'mcp_host_transcript_cache_reads', unit: '{read}', valueType: 'int' },
        { kind: 'gauge', name: 'mcp_host_approvals_waiting', unit: '{conversation}', valueType: 'int' },
      ]),
    );
    const prometheus = new RecordingMeter();
    new HostMetrics(prometheus, 'prometheus');
    expect(prometheus.made.map((m) => m.name).filter((name) => name.includes('.'))).toEqual([]);
    expect(prometheus.made.map((m) => m.name)).toContain('gen_ai_client_token_usage');
  });

  it('a Claude call: tokens by kind (a compaction’s included, as status adds them), duration, estimated cost', () => {
    const meter = new RecordingMeter();
    const metrics = new HostMetrics(meter, 'otel');
    metrics.recordClaudeCall({
      requestModel: 'claude-sonnet-4-6',
      responseModel: 'claude-sonnet-4-6-20260101',
      seconds: 1.25,
      usage: {
        input_tokens: 1000,
        output_tokens: 200,
        cache_read_input_tokens: 3000,
        cache_creation_input_tokens: 400,
        compaction: { input_tokens: 50, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    });
    const base = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-6',
      'gen_ai.response.model': 'claude-sonnet-4-6-20260101',
    };
    expect(meter.of('gen_ai.client.token.usage')).toEqual([
      { kind: 'histogram', name: 'gen_ai.client.token.usage', value: 1050, tags: { ...base, 'gen_ai.token.type': 'input' } },
      { kind: 'histogram', name: 'gen_ai.client.token.usage', value: 205, tags: { ...base, 'gen_ai.token.type': 'output' } },
      { kind: 'histogram', name: 'gen_ai.client.token.usage', value: 3000, tags: { ...base, 'gen_ai.token.type': 'cache_read' } },
      { kind: 'histogram', name: 'gen_ai.client.token.usage', value: 400, tags: { ...base, 'gen_ai.token.type': 'cache_creation' } },
    ]);
    expect(meter.of('gen_ai.client.operation.duration')).toEqual([{ kind: 'histogram', name: 'gen_ai.client.operation.duration', value: 1.25, tags: base }]);
    // Sonnet 4 list prices: 1050 × $3 + 205 × $15 + 3000 × $0.30 + 400 × $3.75 per million.
    const [cost] = meter.of('mcp_host_claude_cost_usd');
    expect(cost?.value).toBeCloseTo((1050 * 3 + 205 * 15 + 3000 * 0.3 + 400 * 3.75) / 1e6, 9);
    expect(cost?.tags).toEqual({ 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-sonnet-4-6' });
  });

  it('a failed Claude call: its duration with error.type, no tokens and no cost; an unpriced model: no cost', () => {
    const meter = new RecordingMeter();
    const metrics = new HostMetrics(meter, 'prometheus');
    metrics.recordClaudeCall({ requestModel: 'claude-sonnet-4-6', seconds: 0.5, errorType: 'claude.overloaded_error' });
    expect(meter.values).toEqual([
      {
        kind: 'histogram',
        name: 'gen_ai_client_operation_duration',
        value: 0.5,
        tags: { gen_ai_operation_name: 'chat', gen_ai_provider_name: 'anthropic', gen_ai_request_model: 'claude-sonnet-4-6', error_type: 'claude.overloaded_error' },
      },
    ]);
    metrics.recordClaudeCall({ requestModel: 'some-other-model', responseModel: 'some-other-model', seconds: 1, usage: { input_tokens: 1, output_tokens: 1 } });
    expect(meter.of('mcp_host_claude_cost_usd')).toEqual([]);
    expect(meter.of('gen_ai_client_token_usage')).toHaveLength(4);
  });

  it('a tool call: server, tool, method and outcome; error.type for a tool error or a failure', () => {
    const meter = new RecordingMeter();
    const metrics = new HostMetrics(meter, 'prometheus');
    metrics.recordToolCall({ server: 'weather', tool: 'get_weather', seconds: 0.2, outcome: 'ok' });
    metrics.recordToolCall({ server: 'weather', tool: 'get_weather', seconds: 0.1, outcome: 'is_error', errorType: 'tool_error' });
    metrics.recordToolCall({ server: 'lab', tool: 'slow_echo', seconds: 30, outcome: 'failed', errorType: 'mcp.timeout' });
    const tags = meter.of('mcp_client_operation_duration').map((v) => [v.value, v.tags]);
    const common = { mcp_method_name: 'tools/call', gen_ai_operation_name: 'execute_tool' };
    expect(tags).toEqual([
      [0.2, { ...common, mcp_server_name: 'weather', gen_ai_tool_name: 'get_weather', outcome: 'ok' }],
      [0.1, { ...common, mcp_server_name: 'weather', gen_ai_tool_name: 'get_weather', outcome: 'is_error', error_type: 'tool_error' }],
      [30, { ...common, mcp_server_name: 'lab', gen_ai_tool_name: 'slow_echo', outcome: 'failed', error_type: 'mcp.timeout' }],
    ]);
  });

  it('transcript reads and the conversation gauges (an unknown count left alone)', () => {
    const meter = new RecordingMeter();
    const metrics = new HostMetrics(meter, 'otel');
    metrics.recordTranscriptRead(true);
    metrics.recordTranscriptRead(false);
    expect(meter.of('mcp_host_transcript_cache_reads').map((v) => v.tags)).toEqual([{ result: 'hit' }, { result: 'miss' }]);
    metrics.recordConversations({ open: 3, turnsRunning: 1, approvalsWaiting: 0 }, { namespace: 'default', taskQueue: 'mcp-host' });
    expect(meter.values.filter((v) => v.kind === 'gauge').map((v) => [v.name, v.value, v.tags])).toEqual([
      ['mcp_host_conversations_open', 3, { namespace: 'default', task_queue: 'mcp-host' }],
      ['mcp_host_turns_running', 1, { namespace: 'default', task_queue: 'mcp-host' }],
      ['mcp_host_approvals_waiting', 0, { namespace: 'default', task_queue: 'mcp-host' }],
    ]);
  });

  it('off: records nothing anywhere and says it is off', () => {
    expect(HostMetrics.off.enabled).toBe(false);
    expect(() => HostMetrics.off.recordToolCall({ server: 's', tool: 't', seconds: 1, outcome: 'ok' })).not.toThrow();
  });

  it('histogram buckets are keyed by the exported names, with the conventions’ boundaries', () => {
    expect(histogramBuckets('prometheus')[exportedName(HOST_METRICS.tokenUsage.name, 'prometheus')]).toEqual([...HOST_METRICS.tokenUsage.buckets]);
    expect(Object.keys(histogramBuckets('otel'))).toEqual(['gen_ai.client.token.usage', 'gen_ai.client.operation.duration', 'mcp_host_claude_cost_usd', 'mcp.client.operation.duration']);
    expect(histogramBuckets('otel')['mcp.client.operation.duration']).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
  });
});
