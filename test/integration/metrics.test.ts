/**
 * Metrics (issue 30) end to end, with real parts: the compiled worker with its Prometheus endpoint
 * on (`OTEL_METRICS_EXPORTER=prometheus`), real Temporal, the seed's weather server and a lab server
 * whose calls wait for approval, the scripted fake Messages API, and Debian's `prometheus` scraping
 * the worker every second. Prometheus's own HTTP API is asked, as a dashboard would:
 * - the token counter (`gen_ai_client_token_usage_sum` by `gen_ai_token_type`), the Claude calls,
 *   the estimated cost and the turns match what `status` (the CLI's and the library's) adds up;
 * - the tool-latency histogram (`mcp_client_operation_duration`) has the calls by server, tool and
 *   outcome (ok, is_error), buckets included;
 * - the gauges count a conversation waiting for an approval, then none;
 * - the Temporal SDK's own worker metrics are on the same endpoint;
 * - no label or value of the endpoint holds the run's secrets (the API key, an MCP server's env value).
 * Skipped, saying why, where `prometheus` is not installed (it fails instead under CI=true).
 *
 * And by OTLP (`OTEL_EXPORTER_OTLP_ENDPOINT`): the worker's runtime pushes OTLP/HTTP protobuf to a
 * receiver of the test's, with the configured header, the service name in the resource and the
 * conventions' dotted names, the SDK's metrics beside the host's; the header's value is never printed.
 */
import { Client, Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptContentBlock, type ScriptStep } from '../../src/testing';
import { ConversationClient } from '../../src/client/conversation-client';
import type { ConversationStatus } from '../../src/conversation/types';
import { freePort } from '../../src/temporal/free-port';
import { dataConverter } from '../../src/temporal/data-converter';
import { runCliProcess } from '../support/cli-process';
import { expectNoneIn } from '../support/expect-none-in';
import { optionalServerTest } from '../support/optional-server';
import { pollUntil } from '../support/poll-until';
import { PROMETHEUS, prometheusInstalled, startPrometheus, type PrometheusServer } from '../support/prometheus-server';
import { REPO_ROOT } from '../support/repo';
import { seedReplies } from '../support/seed-transcript';
import { TEST_API_KEY, temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, waitForLine, type WorkerProcess } from '../support/worker-process';

const installed = prometheusInstalled();
const testWithPrometheus = optionalServerTest(PROMETHEUS, installed);

/** A value only the weather server's env holds: it must not reach any metric. */
const MCP_SECRET = `weather-env-secret-${randomUUID()}`;

const reply = (content: ScriptContentBlock[], stop: 'tool_use' | 'end_turn', usage?: Record<string, number>): ScriptStep => ({
  kind: 'message',
  content,
  stop_reason: stop,
  ...(usage !== undefined ? { usage } : {}),
});

describe('metrics on a Prometheus endpoint, scraped by Prometheus', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let conversations: ConversationClient;
  let worker: WorkerProcess | undefined;
  let prometheus: PrometheusServer | undefined;
  let endpoint: string;
  const taskQueue = `metrics-${randomUUID()}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-metrics-'));
  const mcpConfigPath = path.join(dir, 'mcp.json');

  beforeAll(async () => {
    if (!installed) return;
    fs.writeFileSync(
      mcpConfigPath,
      JSON.stringify({
        mcpServers: {
          weather: { command: process.execPath, args: ['--import', 'tsx', path.join(REPO_ROOT, 'src/example-servers/weather/main.ts')], env: { WEATHER_TOKEN: MCP_SECRET }, cwd: REPO_ROOT },
          lab: { command: process.execPath, args: ['--import', 'tsx', path.join(REPO_ROOT, 'test/fixtures/lab-server.ts')], cwd: REPO_ROOT, approval: 'ask' },
        },
      }),
    );
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    conversations = new ConversationClient(new Client({ connection, dataConverter }), { taskQueue });
    const port = await freePort();
    endpoint = `127.0.0.1:${port}`;
    worker = await spawnWorkerProcess({
      address: temporalAddress(),
      taskQueue,
      mcpConfigPath,
      claudeBaseUrl: fake.url,
      env: {
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
        OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
        // The gauges are counted every second.
        OTEL_METRIC_EXPORT_INTERVAL: '1000',
        OTEL_SERVICE_NAME: 'mcp-host-metrics-test',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
      },
    });
    prometheus = await startPrometheus(endpoint);
  }, 120_000);
  afterAll(async () => {
    await prometheus?.stop();
    await worker?.stop();
    await connection?.close();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Polls Prometheus until `promql` answers `expected` (scrapes come every second). */
  const eventually = async (promql: string, expected: number): Promise<void> => {
    let last: number | undefined;
    try {
      await pollUntil(`${promql} = ${expected}`, async () => {
        last = await prometheus!.value(promql);
        return last !== undefined && Math.abs(last - expected) < 1e-9;
      }, 30_000);
    } catch {
      throw new Error(`${promql}: expected ${expected}, Prometheus answers ${String(last)}`);
    }
  };

  testWithPrometheus('the seed conversation: tokens, cost, Claude and tool calls in Prometheus match status; the SDK metrics beside them; no secret', async () => {
    const w = worker!;
    expect(await waitForLine(w, /^Metrics: .*$/m)).toBe(`Metrics: Prometheus endpoint http://${endpoint}/metrics (Temporal SDK and host metrics)`);
    // The seed's replies, two of them with cache tokens, the first after an overloaded answer (a
    // failed attempt, retried); then a call the weather server refuses (-32602: a failed tool call
    // attempt, not retried) and a city it does not know (an is_error result).
    const [hello, beijingCall, beijingAnswer, shanghaiCall, shanghaiAnswer] = seedReplies();
    fake.enqueue(
      { kind: 'error', status: 529, headers: { 'retry-after': '1' } },
      { ...hello!, usage: { cache_creation_input_tokens: 1200 } } as ScriptStep,
      beijingCall!,
      { ...beijingAnswer!, usage: { cache_read_input_tokens: 1200, cache_creation_input_tokens: 300 } } as ScriptStep,
      shanghaiCall!,
      shanghaiAnswer!,
      reply([{ type: 'tool_use', id: 'toolu_bad', name: 'get_weather', input: { town: '亚特兰蒂斯' } }], 'tool_use'),
      reply([{ type: 'tool_use', id: 'toolu_atl', name: 'get_weather', input: { city: '亚特兰蒂斯' } }], 'tool_use'),
      reply([{ type: 'text', text: '查不到亚特兰蒂斯的天气。' }], 'end_turn', { cache_read_input_tokens: 1500 }),
    );
    const { id } = await conversations.start('你好', { wait: true });
    expect(await conversations.send(id, '北京今天天气怎么样')).toMatchObject({ status: 'completed', text: '北京今天晴，25°C，适合出门。' });
    expect(await conversations.send(id, '那上海呢')).toMatchObject({ status: 'completed', text: '上海今天多云，22°C。' });
    expect(await conversations.send(id, '亚特兰蒂斯呢')).toMatchObject({ status: 'completed', toolCalls: 2 });
    const status: ConversationStatus = await conversations.status(id);
    // The refused call is a tool call too, answered by the host (hostToolErrors); the overloaded attempt is no model call.
    expect(status).toMatchObject({ turnsCompleted: 4, modelCalls: 8, toolCalls: 4, toolErrors: 1, hostToolErrors: 1 });
    expect(status.usage.cacheReadInputTokens).toBe(2700);
    expect(status.usage.cacheCreationInputTokens).toBe(1500);

    // The CLI's status says the same (what an operator compares a dashboard with).
    const cli = await runCliProcess(['status', id, '--json'], { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue });
    expect(cli.code).toBe(0);
    expect((JSON.parse(cli.stdout) as ConversationStatus).usage).toEqual(status.usage);

    // The token counter: the sum of the token histogram, by kind, equals status's totals.
    const tokens = (type: string): string => `sum(gen_ai_client_token_usage_sum{gen_ai_token_type="${type}",gen_ai_provider_name="anthropic",gen_ai_operation_name="chat"})`;
    await eventually(tokens('input'), status.usage.inputTokens);
    await eventually(tokens('output'), status.usage.outputTokens);
    await eventually(tokens('cache_read'), status.usage.cacheReadInputTokens);
    await eventually(tokens('cache_creation'), status.usage.cacheCreationInputTokens);
    // Labelled with the conversation's model, as requested and as answered.
    const byModel = await prometheus!.query('sum by (gen_ai_request_model, gen_ai_response_model) (gen_ai_client_token_usage_count{gen_ai_token_type="input"})');
    expect(byModel).toEqual([{ metric: { gen_ai_request_model: 'claude-sonnet-4-6', gen_ai_response_model: 'claude-sonnet-4-6' }, value: status.modelCalls }]);
    // Claude call attempts (the duration histogram's count): every model call, and the overloaded attempt by its type.
    await eventually('sum(gen_ai_client_operation_duration_count{error_type=""})', status.modelCalls);
    await eventually('sum(gen_ai_client_operation_duration_count{error_type="claude.overloaded_error",gen_ai_request_model="claude-sonnet-4-6"})', 1);
    // The estimated cost adds up to status's (each call rounded to a millionth).
    const cost = await prometheus!.value('sum(mcp_host_claude_cost_usd_sum)');
    expect(cost).toBeCloseTo(status.cost.usd, 5);
    await eventually('sum(mcp_host_turns{status="completed"})', 4);

    // The tool-latency histogram: by server, tool and outcome; every call in the +Inf bucket and a positive time.
    const tool = 'mcp_client_operation_duration';
    await eventually(`sum(${tool}_count{mcp_server_name="weather",gen_ai_tool_name="get_weather",mcp_method_name="tools/call",outcome="ok"})`, 2);
    await eventually(`sum(${tool}_count{mcp_server_name="weather",gen_ai_tool_name="get_weather",outcome="is_error",error_type="tool_error"})`, 1);
    await eventually(`sum(${tool}_count{mcp_server_name="weather",gen_ai_tool_name="get_weather",outcome="failed",error_type="mcp.invalid_params"})`, 1);
    expect(await prometheus!.value(`sum(${tool}_bucket{le="+Inf"})`)).toBe(status.toolCalls);
    expect(await prometheus!.value(`sum(${tool}_sum)`)).toBeGreaterThan(0);
    const buckets = await prometheus!.query(`sum by (le) (${tool}_bucket{outcome="ok"})`);
    expect(buckets.map((b) => b.metric.le)).toEqual(expect.arrayContaining(['0.01', '0.1', '1', '10', '300', '+Inf']));
    // The cache of transcripts was read for every Claude call, most of them without a query.
    expect(await prometheus!.value('sum(mcp_host_transcript_cache_reads)')).toBeGreaterThanOrEqual(status.modelCalls);
    expect(await prometheus!.value('sum(mcp_host_transcript_cache_reads{result="hit"})')).toBeGreaterThan(0);

    // The SDK's own worker metrics, on the same endpoint and scraped alike.
    expect(await prometheus!.value('sum(temporal_activity_execution_latency_count{activity_type="callClaude"})')).toBeGreaterThanOrEqual(status.modelCalls);
    expect(await prometheus!.value('sum(temporal_workflow_task_execution_latency_count)')).toBeGreaterThan(0);

    // A second conversation whose tool call waits for approval: the gauges count it, then not.
    fake.enqueue(reply([{ type: 'tool_use', id: 'toolu_echo', name: 'slow_echo', input: { text: 'hi', ms: 0 } }], 'tool_use'), reply([{ type: 'text', text: 'echo: hi' }], 'end_turn'));
    const waiting = `metrics-approval-${randomUUID()}`;
    await conversations.start('echo hi', { id: waiting });
    await pollUntil('the call to wait for approval', async () => ((await conversations.status(waiting)).pendingApprovals.length > 0 ? true : undefined));
    const gauge = (name: string): string => `max(${name}{task_queue="${taskQueue}"})`;
    await eventually(gauge('mcp_host_approvals_waiting'), 1);
    await eventually(gauge('mcp_host_turns_running'), 1);
    await eventually(gauge('mcp_host_conversations_open'), 2);
    await eventually(gauge('mcp_host_input_requests_waiting'), 0);
    expect((await conversations.approve(waiting, ['toolu_echo'])).stillWaiting).toBe(0);
    await pollUntil('the approved turn to end', async () => ((await conversations.status(waiting)).turnsCompleted === 1 ? true : undefined));
    await eventually(gauge('mcp_host_approvals_waiting'), 0);
    await eventually(gauge('mcp_host_turns_running'), 0);
    await conversations.end(id);
    await conversations.end(waiting);
    await eventually(gauge('mcp_host_conversations_open'), 0);
    await eventually('sum(mcp_host_turns{status="completed"})', 5);
    // The approved call is a tool call of the lab server, counted like the others.
    await eventually(`sum(${tool}_count{mcp_server_name="lab",gen_ai_tool_name="slow_echo",outcome="ok"})`, 1);

    // The Grafana dashboard's queries (docs/grafana-dashboard.json) all run, on the names as exported.
    const dashboard = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'docs/grafana-dashboard.json'), 'utf8')) as { panels: Array<{ title: string; targets?: Array<{ expr: string }> }> };
    const answers: Array<{ expr: string; samples: number }> = [];
    for (const target of dashboard.panels.flatMap((panel) => panel.targets ?? [])) {
      const expr = target.expr.replace(/\$__rate_interval/g, '1m').replace(/\$__range/g, '10m');
      answers.push({ expr: target.expr, samples: (await prometheus!.query(expr)).length });
    }
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.samples === 0).map((a) => a.expr)).toEqual([]);

    // No secret anywhere in what the worker exports, nor in any series Prometheus stored.
    const text = await (await fetch(`http://${endpoint}/metrics`)).text();
    const stored = await prometheus!.series('{job="mcp-host-worker"}');
    expect(stored.length).toBeGreaterThan(50);
    expectNoneIn([TEST_API_KEY, MCP_SECRET], { '/metrics': text, 'Prometheus series': JSON.stringify(stored) });
    // The service name and resource attributes are labels of every series (one service_name); nothing of the conversations' content is.
    const samples = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(samples.filter((line) => !line.includes('service_name="mcp-host-metrics-test"') || !line.includes('deployment_environment="test"'))).toEqual([]);
    expect(text).not.toContain('temporal-core-sdk');
    expectNoneIn(['北京', '上海', '亚特兰蒂斯', 'echo hi', id], { '/metrics': text });
  }, 240_000);
});

describe('metrics by OTLP', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let worker: WorkerProcess | undefined;
  let receiver: http.Server;
  const received: Array<{ path: string; headers: http.IncomingHttpHeaders; body: Buffer }> = [];
  const taskQueue = `metrics-otlp-${randomUUID()}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-metrics-otlp-'));
  const token = `otlp-token-${randomUUID()}`;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        // An empty ExportMetricsServiceResponse.
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as { port: number };
    const mcpConfigPath = path.join(dir, 'mcp.json');
    fs.writeFileSync(mcpConfigPath, JSON.stringify({ mcpServers: { weather: { command: process.execPath, args: ['--import', 'tsx', path.join(REPO_ROOT, 'src/example-servers/weather/main.ts')], env: { WEATHER_TOKEN: MCP_SECRET }, cwd: REPO_ROOT } } }));
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    worker = await spawnWorkerProcess({
      address: temporalAddress(),
      taskQueue,
      mcpConfigPath,
      claudeBaseUrl: fake.url,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${token}`,
        OTEL_METRIC_EXPORT_INTERVAL: '500',
        OTEL_SERVICE_NAME: 'mcp-host-otlp-test',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
    await fake?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the worker pushes the host and SDK metrics to the OTLP endpoint, with its header and service name', async () => {
    const w = worker!;
    const port = (receiver.address() as { port: number }).port;
    expect(await waitForLine(w, /^Metrics: .*$/m)).toBe(`Metrics: OTLP http/protobuf to http://127.0.0.1:${port}/v1/metrics every 0.5 s, 1 header (values not shown) (Temporal SDK and host metrics)`);
    const [, beijingCall, beijingAnswer] = seedReplies();
    fake.enqueue(beijingCall!, beijingAnswer!);
    const conversations = new ConversationClient(new Client({ connection, dataConverter }), { taskQueue });
    const { id, result } = await conversations.start('北京今天天气怎么样', { wait: true });
    expect(result).toMatchObject({ status: 'completed', toolCalls: 1 });
    const names = ['gen_ai.client.token.usage', 'gen_ai.token.type', 'gen_ai.client.operation.duration', 'mcp.client.operation.duration', 'get_weather', 'mcp_host_turns', 'temporal_activity_execution_latency'];
    const all = (): string => received.map((r) => r.body.toString('latin1')).join('\n');
    await pollUntil('the host and SDK metrics by OTLP', () => names.every((name) => all().includes(name)), 30_000);
    for (const request of received) {
      expect(request.path).toBe('/v1/metrics');
      expect(request.headers['content-type']).toBe('application/x-protobuf');
      expect(request.headers.authorization).toBe(`Bearer ${token}`);
    }
    expect(all()).toContain('mcp-host-otlp-test');
    await conversations.end(id);
    expectNoneIn([TEST_API_KEY, MCP_SECRET, token], { 'OTLP bodies': all() });
    expectNoneIn([token, MCP_SECRET], { 'worker output': w.output.join('') });
  }, 120_000);
});
