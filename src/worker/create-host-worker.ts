/**
 * The library's worker factory: everything `npm run worker` runs, for an application to run in its
 * own process. It reads the MCP config (a path or the parsed object), connects to Temporal the way
 * the CLI does unless given connections, builds the Claude client from the options or the
 * environment, and owns what it opened: `run()` closes it all when the worker stops.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import * as path from 'node:path';
import type { ConversationActivities } from '../activities/types';
import type { LiveChannel } from '../live/live-channel';
import { openLiveChannel } from '../live/redis-live-channel';
import { DEFAULTS, readSettings, type Settings } from '../config/settings';
import { loadMcpConfig, parseMcpConfig, type McpServerConfig } from '../mcp/config';
import type { McpConnections } from '../mcp/mcp-connections';
import type { ServerProbe } from '../mcp/probe-servers';
import { createWorkerWhileMaking } from './create-worker';
import { startConversationGauges } from '../telemetry/conversation-gauges';
import type { HostMetrics } from '../telemetry/host-metrics';
import { exportIntervalMs } from '../telemetry/metrics-settings';
import { hostMetricsOfRuntime } from '../telemetry/runtime-meter';
import { openTemporalConnections, type TemporalConnections } from './open-temporal-connections';
import { becomeCurrentIfFirst, deploymentFromEnv, versionLabel, type DeploymentVersion } from './worker-deployment';

/** Where the Claude calls go. The key stays in this process: never in a workflow or activity payload. */
export interface ClaudeEndpoint {
  apiKey: string;
  /** Another Messages API endpoint (a proxy, the offline stand-in, a test fake). */
  baseURL?: string;
  /** The `anthropic-version` header (default 2023-06-01). */
  version?: string;
  /**
   * Whether the endpoint has `POST /v1/messages/count_tokens` (default true). The offline stand-in
   * has not: the context guard then keeps its estimate for large tool results.
   */
  countTokens?: boolean;
}

/** How to build a host worker; everything but `mcpConfig` has a default from the environment. */
export interface HostWorkerOptions {
  /** An `mcp.json` path, or its content as an object (`{ "mcpServers": { … } }`, `${VAR}` expanded). */
  mcpConfig: string | object;
  /** The Temporal frontend (default: `TEMPORAL_ADDRESS` or the temporal.toml profile, else 127.0.0.1:7233). */
  address?: string;
  /** The namespace (default: `TEMPORAL_NAMESPACE` or the profile, else `default`). */
  namespace?: string;
  /** Existing connections to use (then not closed by the worker); default: connect like the CLI. */
  temporal?: { client: Client; connection: NativeConnection; namespace?: string };
  /** The task queue (default `MCP_HOST_TASK_QUEUE`, else `mcp-host`); clients must use the same. */
  taskQueue?: string;
  /** Claude's endpoint, or a ready client; default: `ANTHROPIC_API_KEY` / `ANTHROPIC_BASE_URL`. */
  claude?: ClaudeEndpoint | Anthropic;
  /** A workflow bundle to load; default: the prebuilt `dist/workflow-bundle.js`. */
  workflowBundlePath?: string;
  /** Variables for `${VAR}` in the MCP config (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Where MCP server stderr and connection events go (default: stderr); `info` marks routine lines. */
  log?: (line: string, level?: 'info') => void;
  /**
   * The worker deployment version to register as (Worker Versioning: conversations pinned, moved to
   * a newer current version between turns; docs/upgrades.md), or `false` for an unversioned worker.
   * Default: `MCP_HOST_DEPLOYMENT` / `MCP_HOST_BUILD_ID`, unversioned when unset.
   */
  deployment?: DeploymentVersion | false;
}

/** A created worker: call `run()` (it resolves after `shutdown()` once everything is closed). */
export interface HostWorker {
  readonly worker: Worker;
  readonly namespace: string;
  readonly taskQueue: string;
  /** The worker deployment version it registered as, if versioned. */
  readonly deployment: DeploymentVersion | undefined;
  readonly servers: readonly McpServerConfig[];
  /** The MCP connections of this worker. */
  readonly mcp: McpConnections;
  /**
   * Each MCP server, connected and listed once while the worker was created (in config order): what
   * it answered, for a start-up report. Never rejects.
   */
  readonly probes: ReadonlyArray<Promise<ServerProbe>>;
  /** Polls until `shutdown()`; then closes the MCP servers and the connections it opened. */
  run(): Promise<void>;
  /** Starts a graceful stop (in-flight activities get a grace period); safe to call at any time. */
  shutdown(): void;
}

function isClaudeClient(value: ClaudeEndpoint | Anthropic): value is Anthropic {
  return typeof (value as Anthropic).messages === 'object';
}

async function readServers(options: HostWorkerOptions): Promise<McpServerConfig[]> {
  const env = options.env ?? process.env;
  if (typeof options.mcpConfig === 'string') return loadMcpConfig(path.resolve(options.mcpConfig), env);
  return parseMcpConfig(options.mcpConfig, { env, source: 'mcpConfig', baseDir: process.cwd() });
}

/** The ready client, or the endpoint to make one for (checked now: a missing key fails before any connection). */
function claudeEndpoint(option: HostWorkerOptions['claude'], settings: Settings): Anthropic | ClaudeEndpoint {
  if (option !== undefined && isClaudeClient(option)) return option;
  const endpoint = option ?? {
    apiKey: settings.anthropicApiKey ?? '',
    ...(settings.anthropicBaseUrl !== undefined ? { baseURL: settings.anthropicBaseUrl } : {}),
    ...(settings.anthropicVersion !== undefined ? { version: settings.anthropicVersion } : {}),
  };
  if (endpoint.apiKey === '') throw new Error('no Claude API key: set ANTHROPIC_API_KEY or pass `claude: { apiKey }`');
  return endpoint;
}

/** What the worker's activities are made with, besides themselves. */
interface MadeForActivities {
  mcp: McpConnections;
  probes: Array<Promise<ServerProbe>>;
  metrics: HostMetrics;
}

/*
 * The Claude and MCP SDKs (half a second of module loading) are required here, while the workflow
 * thread starts (createWorkerWhileMaking), not when this module loads: a new worker polls sooner.
 * The MCP servers are connected here too, so a stdio server's process starts while the workflow
 * code loads rather than after the worker polls: a worker started after a crash has its tools
 * sooner (a retried tool call waits for its server to start).
 */
/* eslint-disable @typescript-eslint/no-require-imports */
function makeActivities(
  claude: Anthropic | ClaudeEndpoint,
  servers: readonly McpServerConfig[],
  temporal: Client,
  log: HostWorkerOptions['log'],
  live: LiveChannel | undefined,
): { activities: ConversationActivities; made: MadeForActivities } {
  const { createClaudeClient } = require('../claude/create-claude-client') as typeof import('../claude/create-claude-client');
  const { McpConnections: Connections } = require('../mcp/mcp-connections') as typeof import('../mcp/mcp-connections');
  const { createActivities } = require('../activities') as typeof import('../activities');
  const { startProbes } = require('../mcp/probe-servers') as typeof import('../mcp/probe-servers');
  const mcp = new Connections(servers, log);
  // On the runtime's meter: out through the exporter of the SDK's own metrics, when there is one.
  const metrics = hostMetricsOfRuntime();
  const activities = createActivities({
    claude: isClaudeClient(claude) ? claude : createClaudeClient(claude),
    temporal,
    mcp,
    ...(!isClaudeClient(claude) && claude.countTokens === false ? { countTokens: false } : {}),
    metrics,
    ...(live !== undefined ? { live } : {}),
  });
  return { activities, made: { mcp, probes: startProbes(mcp), metrics } };
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** Creates a conversation worker; nothing is left open when this rejects. */
export async function createHostWorker(options: HostWorkerOptions): Promise<HostWorker> {
  const settings = readSettings();
  // How often the conversation gauges are counted (OTEL_METRIC_EXPORT_INTERVAL); read before anything opens.
  const gaugeIntervalMs = exportIntervalMs();
  const servers = await readServers(options);
  const claude = claudeEndpoint(options.claude, settings);
  let opened: TemporalConnections | undefined;
  const temporal =
    options.temporal ??
    (opened = await openTemporalConnections({
      ...settings,
      temporalAddress: options.address ?? settings.temporalAddress,
      namespace: options.namespace ?? settings.namespace,
    }));
  const namespace = temporal.namespace ?? DEFAULTS.namespace;
  const taskQueue = options.taskQueue ?? settings.taskQueue;
  const deployment = options.deployment === false ? undefined : (options.deployment ?? deploymentFromEnv());
  let madeMcp: McpConnections | undefined;
  // The live channel (MCP_HOST_LIVE_URL): it connects in the background; the Claude calls publish
  // through it once it is ready (never waiting for it).
  const live = settings.live
    ? openLiveChannel(settings.live, { log: options.log ?? ((line) => process.stderr.write(`${line}\n`)), connectionName: 'mcp-host-worker' })
    : undefined;
  const closeOwn = async (): Promise<void> => {
    await madeMcp?.closeAll();
    await live?.close();
    await opened?.close();
  };
  let worker: Worker;
  let made: MadeForActivities;
  try {
    ({ worker, made } = await createWorkerWhileMaking(
      {
        connection: temporal.connection,
        namespace,
        taskQueue,
        ...(options.workflowBundlePath !== undefined ? { workflowBundlePath: options.workflowBundlePath } : {}),
        ...(deployment !== undefined ? { deployment } : {}),
      },
      () => {
        const making = makeActivities(claude, servers, temporal.client, options.log, live);
        madeMcp = making.made.mcp;
        return making;
      },
    ));
  } catch (err) {
    await closeOwn();
    throw err;
  }
  let stopRequested = false;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return {
    worker,
    namespace,
    taskQueue,
    deployment,
    servers,
    mcp: made.mcp,
    probes: made.probes,
    async run(): Promise<void> {
      // The conversation gauges, counted in visibility while the worker runs (metrics on only).
      const gauges = made.metrics.enabled
        ? startConversationGauges({
            client: temporal.client,
            namespace,
            taskQueue,
            metrics: made.metrics,
            intervalMs: gaugeIntervalMs,
            log,
          })
        : undefined;
      try {
        // A created worker holds its connection until it has run; one stopped before running
        // runs and drains at once, so the connection can close (and the process exit).
        const running = worker.run();
        if (stopRequested) worker.shutdown();
        // A deployment's first version becomes current by itself; later ones by the runbook.
        if (deployment !== undefined && !stopRequested) void announceVersion(temporal.client, namespace, deployment, log);
        await running;
      } finally {
        await gauges?.stop();
        await closeOwn();
      }
    },
    shutdown(): void {
      stopRequested = true;
      if (worker.getState() === 'RUNNING') worker.shutdown();
    },
  };
}

/** Makes a deployment's first version current and says what it found; a failure is said, never thrown. */
async function announceVersion(client: Client, namespace: string, deployment: DeploymentVersion, log: (line: string, level?: 'info') => void): Promise<void> {
  const label = versionLabel(deployment);
  try {
    const outcome = await becomeCurrentIfFirst(client, namespace, deployment);
    if (outcome === 'made current') log(`Worker deployment ${label}: the deployment's first version, now current`);
    else if (outcome === 'already current') log(`Worker deployment ${label}: current`);
    else log(`Worker deployment ${label}: not current; new conversations go to the current version until this one is made current (docs/upgrades.md)`);
  } catch (err) {
    log(`Worker deployment ${label}: could not read or set the deployment's current version: ${err instanceof Error ? err.message : String(err)}`);
  }
}
