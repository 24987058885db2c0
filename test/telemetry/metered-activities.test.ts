import { CancelledFailure } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ClaudeCallInput, ClaudeReply, SummarizeInput, ToolCallInput, ToolCallOutput } from '../../src/activities/types';
import { HostMetrics } from '../../src/telemetry/host-metrics';
import { failureTypeOf, meteredActivities, meteredClaudeCall, meteredToolCall } from '../../src/telemetry/metered-activities';
import { RecordingMeter } from '../support/recording-meter';

const toolInput: ToolCallInput = { server: 'weather', tool: 'get_weather', arguments: { city: '北京' }, toolUseId: 'toolu_1' };
const reply: ClaudeReply = { id: 'msg_1', model: 'claude-sonnet-4-6', content: [], stopReason: 'end_turn', stopSequence: null, usage: { input_tokens: 10, output_tokens: 3 } };
const claudeInput = { model: 'claude-sonnet-4-6' } as ClaudeCallInput;

function setup(): { meter: RecordingMeter; metrics: HostMetrics } {
  const meter = new RecordingMeter();
  return { meter, metrics: new HostMetrics(meter, 'otel') };
}

describe('metered activities', () => {
  it('a Claude call that returns: its duration and tokens; one that throws: error.type, rethrown unchanged', async () => {
    const { meter, metrics } = setup();
    const ok = meteredClaudeCall(metrics, () => Promise.resolve(reply), (_input, r) => r);
    expect(await ok(claudeInput)).toBe(reply);
    expect(meter.of('gen_ai.client.token.usage').map((v) => v.value)).toEqual([10, 3, 0, 0]);
    const [duration] = meter.of('gen_ai.client.operation.duration');
    expect(duration?.value).toBeGreaterThanOrEqual(0);
    expect(duration?.tags['error.type']).toBeUndefined();

    const failure = ApplicationFailure.create({ type: 'claude.overloaded_error', message: 'Claude API 529: overloaded (sk-ant-secret)' });
    const failing = meteredClaudeCall(metrics, () => Promise.reject(failure), (_input, r: ClaudeReply) => r);
    await expect(failing(claudeInput)).rejects.toBe(failure);
    const failed = meter.of('gen_ai.client.operation.duration')[1];
    expect(failed?.tags).toMatchObject({ 'error.type': 'claude.overloaded_error', 'gen_ai.request.model': 'claude-sonnet-4-6' });
    // The type only, never the message.
    expect(JSON.stringify(meter.values)).not.toContain('sk-ant-secret');
    expect(meter.of('gen_ai.client.token.usage')).toHaveLength(4);
  });

  it('a tool call: ok, is_error (tool_error), input_required, failed with its type', async () => {
    const { meter, metrics } = setup();
    const answer = (output: ToolCallOutput) => meteredToolCall(metrics, () => Promise.resolve(output));
    await answer({ content: 'ok', isError: false, truncatedChars: 0 })(toolInput);
    await answer({ content: 'no such city', isError: true, truncatedChars: 0 })(toolInput);
    await answer({ content: [], isError: false, truncatedChars: 0, inputRequired: { inputRequests: {}, answered: {} } })(toolInput);
    const timeout = ApplicationFailure.create({ type: 'mcp.timeout', message: 'timed out' });
    await expect(meteredToolCall(metrics, () => Promise.reject(timeout))(toolInput)).rejects.toBe(timeout);
    await expect(meteredToolCall(metrics, () => Promise.reject(new CancelledFailure('gone')))(toolInput)).rejects.toBeInstanceOf(CancelledFailure);
    expect(meter.of('mcp.client.operation.duration').map((v) => [v.tags.outcome, v.tags['error.type']])).toEqual([
      ['ok', undefined],
      ['is_error', 'tool_error'],
      ['input_required', undefined],
      ['failed', 'mcp.timeout'],
      ['failed', 'cancelled'],
    ]);
    // Arguments and results are never labels.
    expect(JSON.stringify(meter.values)).not.toContain('北京');
    expect(JSON.stringify(meter.values)).not.toContain('no such city');
  });

  it('a recording that throws never fails the call', async () => {
    const metrics = new HostMetrics(new RecordingMeter(), 'otel');
    jest.spyOn(metrics, 'recordToolCall').mockImplementation(() => {
      throw new Error('exporter broke');
    });
    const output: ToolCallOutput = { content: 'ok', isError: false, truncatedChars: 0 };
    await expect(meteredToolCall(metrics, () => Promise.resolve(output))(toolInput)).resolves.toBe(output);
  });

  it('failureTypeOf names the failure type, never its text', () => {
    expect(failureTypeOf(ApplicationFailure.create({ type: 'mcp.unreachable', message: 'x' }))).toBe('mcp.unreachable');
    expect(failureTypeOf(ApplicationFailure.create({ message: 'untyped' }))).toBe('_OTHER');
    expect(failureTypeOf(new Error('plain'))).toBe('_OTHER');
    expect(failureTypeOf(new CancelledFailure('cancelled'))).toBe('cancelled');
  });

  it('meteredActivities: summaries with nothing to fold in and token counts make no Claude call; sampling is priced on its model', async () => {
    const { meter, metrics } = setup();
    const activities = meteredActivities(metrics, {
      callClaude: () => Promise.resolve(reply),
      summarizeContext: () => Promise.resolve({ summary: null, usage: { input_tokens: 0, output_tokens: 0 } }),
      countTokens: () => Promise.resolve({ inputTokens: 12 }),
      sampleMessage: () => Promise.resolve({ result: { model: 'claude-haiku-4-5', role: 'assistant' }, usage: { input_tokens: 5, output_tokens: 5 } }),
      listTools: () => Promise.resolve({ changed: false }),
      callTool: () => Promise.resolve({ content: 'ok', isError: false, truncatedChars: 0 }),
      useResources: () => Promise.resolve({ content: 'ok', isError: false, truncatedChars: 0 }),
    });
    await activities.summarizeContext({ model: 'claude-sonnet-4-6' } as SummarizeInput);
    await activities.countTokens(claudeInput);
    expect(meter.values).toEqual([]);
    await activities.sampleMessage({ model: 'claude-sonnet-4-6', server: 'everything', params: {}, maxTokensCap: 100 });
    expect(meter.of('mcp_host_claude_cost_usd')[0]?.tags).toEqual({ 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-haiku-4-5' });
    await activities.useResources({ tool: 'list_resources', arguments: {}, toolUseId: 't' });
    expect(meter.of('mcp.client.operation.duration')).toEqual([]);
  });
});
