/**
 * Runs the conversation worker until it is asked to stop (`npm run worker`, `npm start`): one line
 * per component on stderr, each MCP server with its tool count or its error, and on stop every MCP
 * connection closed so no child process is left behind. A stop that arrives while the worker is
 * still being created stops it as soon as it exists.
 */
import type { Settings } from '../config/settings';
import { describeProbe, reportProbes } from '../mcp/probe-servers';
import { liveTextLine } from '../live/live-url';
import { createHostWorker, type ClaudeEndpoint } from './create-host-worker';
import { versionLabel } from './worker-deployment';
import { logLevelFrom } from './runtime-logger';
import { readMetricsSettings } from '../telemetry/metrics-settings';
import { describeMetrics } from '../telemetry/metrics-runtime';
import { readTraceSettings } from '../telemetry/trace-settings';
import { currentTracing, describeTracing } from '../telemetry/tracing';

export type { ClaudeEndpoint } from './create-host-worker';

/** Runs the worker; resolves after `stopSignal` aborts and everything is closed. */
export async function runWorker(
  settings: Settings,
  address: string | undefined,
  claude: ClaudeEndpoint,
  stopSignal: AbortSignal,
  say: (line: string) => void,
): Promise<void> {
  stopSignal.throwIfAborted();
  // Routine MCP lifecycle lines (connected, idle close) only when LOG_LEVEL asks for INFO or more.
  const verbose = ['TRACE', 'DEBUG', 'INFO'].includes(logLevelFrom());
  const host = await createHostWorker({
    mcpConfig: settings.mcpConfigPath,
    log: (line, level) => {
      // Once stopping, a terminal's Ctrl-C has reached the stdio servers too (same process group):
      // their goodbyes and the closed connections are expected, not news.
      if (stopSignal.aborted && !verbose) return;
      if (level !== 'info' || verbose) say(line);
    },
    claude,
    taskQueue: settings.taskQueue,
    namespace: settings.namespace,
    ...(address !== undefined ? { address } : {}),
  });
  const onStop = (): void => host.shutdown();
  if (stopSignal.aborted) onStop();
  else stopSignal.addEventListener('abort', onStop, { once: true });
  const running = host.run();
  if (!stopSignal.aborted) {
    const version = host.deployment !== undefined ? ` as worker deployment version ${versionLabel(host.deployment)} (conversations pinned; docs/upgrades.md)` : '';
    say(`Worker: polling task queue "${host.taskQueue}" in namespace "${host.namespace}"${version}`);
  }
  // Where the metrics go, when they are on (never a header value or a URL's credentials).
  const metrics = readMetricsSettings();
  if (metrics.exporter !== 'none') say(describeMetrics(metrics));
  const traces = readTraceSettings();
  if (traces.exporter !== 'none') say(describeTracing(traces));
  // Which way followers get the answer live (the broker's URL without its credentials).
  if (!stopSignal.aborted) say(liveTextLine(settings.live));
  if (host.servers.length === 0) say('MCP servers: none configured (conversations run without tools)');
  // Reported while the worker already polls (the probes started while it was created): a slow
  // server must not delay the worker.
  const probing = stopSignal.aborted ? Promise.resolve() : reportProbes(host.probes, (probe) => say(describeProbe(probe))).then(() => undefined);
  try {
    await running;
  } finally {
    await probing.catch(() => undefined);
    // The spans of the last moments, exported before the process goes.
    await currentTracing()?.shutdown().catch(() => undefined);
  }
}
