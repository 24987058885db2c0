/**
 * A real Jaeger v2 (built with Go into the project's cache by `npm run setup:jaeger`) for the tracing
 * tests: its own temp dir, config and ports on 127.0.0.1 (OTLP over HTTP and gRPC in, the query API
 * out, spans kept in memory), queried through Jaeger's own HTTP API (`/api/services`, `/api/traces`)
 * as its UI does. Every listener is on a port of its own, so two Jaegers (two suites) run at once.
 *
 * The web UI. The Go build has none (its query service answers every page with a placeholder): a
 * release binary embeds the built assets of the separate JavaScript project jaegertracing/jaeger-ui,
 * which the npm registry does not carry. When those assets are in the cache ({@link jaegerUiAssets}),
 * Jaeger serves them (`jaeger_query: ui: assets_path:`), and a trace's page is Jaeger's real trace
 * view. They were made once, by hand, with GitHub access: jaeger-ui v1.75.0 (tag v1.75.0, commit
 * d83cb35c682151485818b0d5bbaead44dddade6a, the release paired with Jaeger v1.75.0), built with
 * `bash scripts/build-jaeger-ui.sh <jaeger-ui checkout>` (`npm ci --engine-strict=false` at its root,
 * `npm run build` in packages/jaeger-ui, the `build/` folder copied into
 * `<cache root>/jaeger-ui-v1.75.0/`; see the script's header). CI cannot reach GitHub and has no UI:
 * there the screenshot helper (./jaeger-screenshot.ts) draws the query API's answer instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { jaegerBinaryPath } from '../../scripts/ensure-jaeger';
import { projectCacheRoot } from '../../src/temporal/cli-cache';
import { freePort } from '../../src/temporal/free-port';
import { pollUntil } from './poll-until';
import { stopServerProcess, watchServerProcess } from './stop-server-process';

/** What the tests need to know to run or skip: the binary in the cache (`.ci/run` builds it). */
export const JAEGER = { name: 'Jaeger v2 (built with Go into the cache)', install: 'npm run setup:jaeger' };

/** True when the cached Jaeger binary exists. */
export function jaegerInstalled(): boolean {
  return fs.existsSync(jaegerBinaryPath());
}

/** The jaeger-ui release whose assets are looked for in the cache (the one paired with the binary's Jaeger). */
export const JAEGER_UI_VERSION = '1.75.0';

/**
 * The folder of built Jaeger UI assets to serve, when there is one with an index.html:
 * `MCP_HOST_JAEGER_UI_ASSETS`, else `<cache root>/jaeger-ui-v<version>/` (made by
 * scripts/build-jaeger-ui.sh; see the file comment). Undefined without (as in CI).
 */
export function jaegerUiAssets(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.MCP_HOST_JAEGER_UI_ASSETS || path.join(projectCacheRoot(env), `jaeger-ui-v${JAEGER_UI_VERSION}`);
  return fs.existsSync(path.join(dir, 'index.html')) ? path.resolve(dir) : undefined;
}

/** How to start Jaeger. */
export interface StartJaegerOptions {
  /**
   * The built UI assets its query service serves: a folder, or `false` for none (the Go build's
   * placeholder page). Default: {@link jaegerUiAssets}.
   */
  uiAssets?: string | false;
}

/** One tag of a span or a process, as Jaeger's JSON has it (`type`: string, bool, int64, float64, binary). */
export interface JaegerTag {
  key: string;
  type: string;
  value: unknown;
}

/** A span's link to another: `CHILD_OF` for its parent, `FOLLOWS_FROM` for an OTel link. */
export interface JaegerReference {
  refType: 'CHILD_OF' | 'FOLLOWS_FROM';
  traceID: string;
  spanID: string;
}

/** One span of Jaeger's JSON (times in microseconds). */
export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: JaegerReference[];
  /** Start, in microseconds since the epoch. */
  startTime: number;
  /** Duration, in microseconds. */
  duration: number;
  tags: JaegerTag[];
  /** The key of its process (service) in the trace's `processes`. */
  processID: string;
  warnings?: string[] | null;
}

/** A process: the service that emitted spans, with its resource attributes as tags. */
export interface JaegerProcess {
  serviceName: string;
  tags: JaegerTag[];
}

/** One trace of Jaeger's JSON. */
export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, JaegerProcess>;
  warnings?: string[] | null;
}

/** A span with the name of the service that emitted it (looked up in its trace's processes). */
export interface JaegerSpanWithService extends JaegerSpan {
  serviceName: string;
}

/** What `traces()` asks for besides the service. */
export interface TraceQuery {
  /** Only traces with a span of this name. */
  operation?: string;
  /** Only traces with a span with all these tags. */
  tags?: Record<string, string>;
  /** At most this many traces (Jaeger's default is 100). */
  limit?: number;
  /** How far back to look, in ms (the UI's "lookback"; Jaeger's default is 2 days). */
  lookbackMs?: number;
}

/** A running Jaeger. */
export interface JaegerServer {
  /** OTLP over HTTP: the base an exporter adds `/v1/traces` to. */
  otlpHttpUrl: string;
  /** OTLP over gRPC. */
  otlpGrpcUrl: string;
  /** The query service: its HTTP API (`/api/...`) and UI. */
  uiUrl: string;
  /** The UI assets it serves, undefined when it serves the placeholder page. */
  uiAssets: string | undefined;
  /** The services that have sent spans. */
  services(): Promise<string[]>;
  /** The traces of `service` (newest first, as Jaeger answers). */
  traces(service: string, query?: TraceQuery): Promise<JaegerTrace[]>;
  /** One trace by its id; rejects when Jaeger has no such trace. */
  trace(traceId: string): Promise<JaegerTrace>;
  /**
   * Polls every service's spans until `predicate` accepts them (spans arrive after the exporter's
   * and Jaeger's batching), for up to `timeoutMs`; resolves with the spans it accepted.
   */
  waitForSpans(predicate: (spans: JaegerSpanWithService[]) => boolean, timeoutMs?: number): Promise<JaegerSpanWithService[]>;
  /** Jaeger's own output so far (for failures). */
  output(): string;
  stop(): Promise<void>;
}

/** A span's tags as an object: `{ 'http.method': 'GET', ... }`. */
export function tagsOf(span: JaegerSpan): Record<string, unknown> {
  return Object.fromEntries(span.tags.map((tag) => [tag.key, tag.value]));
}

/** The span id of a span's parent (its `CHILD_OF` reference), undefined for a root span. */
export function parentOf(span: JaegerSpan): string | undefined {
  return span.references.find((ref) => ref.refType === 'CHILD_OF')?.spanID;
}

/** The spans of some traces, each with its service's name. */
export function spansWithService(traces: JaegerTrace[]): JaegerSpanWithService[] {
  return traces.flatMap((trace) => trace.spans.map((span) => ({ ...span, serviceName: trace.processes[span.processID]?.serviceName ?? '' })));
}

interface ApiAnswer<T> {
  data: T;
  errors?: Array<{ code: number; msg: string }> | null;
}

async function api<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const body = (await response.json()) as ApiAnswer<T>;
  if (!response.ok || (body.errors && body.errors.length > 0)) {
    throw new Error(`Jaeger ${url}: ${body.errors?.map((e) => e.msg).join('; ') ?? `HTTP ${response.status}`}`);
  }
  return body.data;
}

/**
 * The collector config: OTLP in, a short batch, Jaeger's in-memory store, the query service; every
 * listener on its own port (Jaeger's defaults, 4317/4318/16685/16686, would collide between two
 * Jaegers), the collector's own metrics off (else a Prometheus endpoint on :8888), and the query
 * service's tracing of itself off (else it exports its own spans by OTLP to localhost:4317); the UI
 * assets, when given, as the query service's `ui.assets_path` (its `--query.static-files` of v1).
 */
function config(ports: { otlpHttp: number; otlpGrpc: number; queryHttp: number; queryGrpc: number }, uiAssets: string | undefined): string {
  return [
    'service:',
    '  extensions: [jaeger_storage, jaeger_query]',
    '  pipelines:',
    '    traces:',
    '      receivers: [otlp]',
    '      processors: [batch]',
    '      exporters: [jaeger_storage_exporter]',
    '  telemetry:',
    '    metrics:',
    '      level: none',
    '    logs:',
    '      level: info',
    'extensions:',
    '  jaeger_storage:',
    '    backends:',
    '      memstore:',
    '        memory:',
    '          max_traces: 100000',
    '  jaeger_query:',
    '    storage:',
    '      traces: memstore',
    '    enable_tracing: false',
    ...(uiAssets === undefined ? [] : ['    ui:', `      assets_path: ${JSON.stringify(uiAssets)}`]),
    '    http:',
    `      endpoint: 127.0.0.1:${ports.queryHttp}`,
    '    grpc:',
    `      endpoint: 127.0.0.1:${ports.queryGrpc}`,
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      http:',
    `        endpoint: 127.0.0.1:${ports.otlpHttp}`,
    '      grpc:',
    `        endpoint: 127.0.0.1:${ports.otlpGrpc}`,
    'processors:',
    '  batch:',
    '    timeout: 100ms',
    'exporters:',
    '  jaeger_storage_exporter:',
    '    trace_storage: memstore',
    '',
  ].join('\n');
}

/**
 * Starts Jaeger, serving the UI assets when there are some (see {@link StartJaegerOptions}); resolves
 * once its query API answers and its OTLP receiver takes spans.
 */
export async function startJaeger(options: StartJaegerOptions = {}): Promise<JaegerServer> {
  const given = options.uiAssets === false ? undefined : (options.uiAssets ?? jaegerUiAssets());
  const uiAssets = given === undefined ? undefined : path.resolve(given); // absolute: Jaeger runs in its temp dir
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-jaeger-'));
  const ports = { otlpHttp: await freePort(), otlpGrpc: await freePort(), queryHttp: await freePort(), queryGrpc: await freePort() };
  const configFile = path.join(dir, 'jaeger.yaml');
  fs.writeFileSync(configFile, config(ports, uiAssets));
  const child: ChildProcess = spawn(jaegerBinaryPath(), ['--config', configFile], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const { lines, exited } = watchServerProcess(child, jaegerBinaryPath());
  const uiUrl = `http://127.0.0.1:${ports.queryHttp}`;
  const otlpHttpUrl = `http://127.0.0.1:${ports.otlpHttp}`;
  const server: JaegerServer = {
    otlpHttpUrl,
    otlpGrpcUrl: `http://127.0.0.1:${ports.otlpGrpc}`,
    uiUrl,
    uiAssets,
    services: async () => (await api<string[] | null>(`${uiUrl}/api/services`)) ?? [],
    traces: async (service, query = {}) => {
      const params = new URLSearchParams({ service, limit: String(query.limit ?? 100) });
      if (query.operation !== undefined) params.set('operation', query.operation);
      if (query.tags !== undefined) params.set('tags', JSON.stringify(query.tags));
      if (query.lookbackMs !== undefined) params.set('start', String((Date.now() - query.lookbackMs) * 1000));
      return (await api<JaegerTrace[] | null>(`${uiUrl}/api/traces?${params.toString()}`)) ?? [];
    },
    trace: async (traceId) => {
      const [trace] = (await api<JaegerTrace[] | null>(`${uiUrl}/api/traces/${encodeURIComponent(traceId)}`)) ?? [];
      if (!trace) throw new Error(`Jaeger has no trace ${traceId}`);
      return trace;
    },
    waitForSpans: (predicate, timeoutMs = 10_000) =>
      pollUntil(
        'spans in Jaeger',
        async () => {
          const traces = (await Promise.all((await server.services()).map((service) => server.traces(service)))).flat();
          // A trace with spans of several services is found once per service: keep each span once.
          const unique = new Map(spansWithService(traces).map((span) => [`${span.traceID}/${span.spanID}`, span]));
          const spans = [...unique.values()];
          return predicate(spans) && spans;
        },
        timeoutMs,
      ),
    output: () => lines.join(''),
    stop: () => stopServerProcess(child, exited, dir),
  };
  // An empty export request is valid OTLP: once it is taken, so are spans.
  const otlpReady = async (): Promise<boolean> =>
    (await fetch(`${otlpHttpUrl}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).ok;
  try {
    await Promise.race([
      pollUntil('Jaeger to be ready', async () => (await fetch(`${uiUrl}/api/services`)).ok && (await otlpReady()), 30_000),
      exited.then(() => {
        throw new Error(`Jaeger exited before it was ready (exit ${String(child.exitCode ?? child.signalCode)})`);
      }),
    ]);
  } catch (err) {
    await server.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}:\n${server.output()}`);
  }
  return server;
}
