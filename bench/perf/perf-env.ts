/**
 * What the performance benchmark runs on: two Temporal dev servers from the existing CLI (never a
 * download; in-memory, the conversations' search attributes registered as `npm start` does), one
 * with Temporal's default dynamic config and one with eager activity dispatch enabled
 * (`system.enableActivityEagerExecution`); the workflow bundles of the host (this tree's source)
 * and of the floor; the fake model; a client per server with the project's data converter.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { dataConverter } from '../../src/temporal/data-converter';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';
import { PROGRESS_ATTRIBUTES } from '../../src/workflows/progress-attributes';
import { workflowPreloadModules } from '../../src/worker/workflow-bundle';
import { freePort } from '../../src/temporal/free-port';
import { devServerPid } from './proc-stats';
import { devServerTuningArgs } from '../../src/temporal/server-tuning';
import { startFakeModel, type FakeModel } from './fake-model';
import { quietLogger } from '../quiet-logger';
import { jaegerInstalled, startJaeger } from '../../test/support/jaeger-server';

/** The dynamic config value that lets the server hand an activity to the workflow task's worker. */
export const EAGER_ACTIVITIES = 'system.enableActivityEagerExecution=true';

/** One dev server and a client of it. */
export interface BenchServer {
  label: 'default' | 'eager';
  address: string;
  client: Client;
  /** The dev server's Prometheus endpoint (requests per operation: `bench/perf/server-requests.ts`). */
  metricsUrl: string;
  /** The dev server's process, for its CPU time (undefined when /proc does not show it). */
  pid?: number;
}

export interface PerfEnv {
  servers: { plain: BenchServer; eager: BenchServer };
  hostBundle: string;
  /** `BENCH_HOST_ROOT`: the tree whose src/ is measured as "host" (default this one). */
  hostRoot?: string;
  floorBundle: string;
  /**
   * `BENCH_BEFORE_ROOT`: another tree (a worktree of an earlier commit, its node_modules linked)
   * measured as "host, before" beside this one, with its own workflow bundle.
   */
  before?: { root: string; bundle: string; label: string };
  model: FakeModel;
  /** The server versions, for the report. */
  versions: string;
  /** A real Jaeger's OTLP/HTTP base URL, where the traced host sends its spans; undefined when Jaeger is not built (`npm run setup:jaeger`). */
  tracesUrl?: string;
  stop(): Promise<void>;
}


const REPO_ROOT = path.resolve(__dirname, '../..');

/**
 * What a tree's build preloads into its workflow sandboxes: the stack trace limit where the tree
 * has one (an earlier commit may not), unless MCP_HOST_WORKFLOW_STACK_TRACES=full.
 */
function treePreloadModules(root: string): string[] {
  const file = path.join(root, 'src/workflows/stack-trace-limit.ts');
  return workflowPreloadModules().length > 0 && fs.existsSync(file) ? [file] : [];
}

/** The workflow interceptors a tree's bundles carry (src/workflows/tracing-interceptors.ts), where it has them. */
function treeInterceptorModules(root: string): string[] {
  const file = path.join(root, 'src/workflows/tracing-interceptors.ts');
  return fs.existsSync(file) ? [file] : [];
}

function cliVersion(cliPath: string): string {
  try {
    return execFileSync(cliPath, ['--version'], { encoding: 'utf8' }).trim().split('\n')[0] ?? 'temporal ?';
  } catch {
    return 'temporal (version unknown)';
  }
}

export async function startPerfEnv(): Promise<PerfEnv> {
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => console.error(err));
    cleanups.length = 0;
  };
  try {
    const cli = findTemporalCli();
    if (!cli) throw new Error('No Temporal CLI found. Run `npm run setup` (builds it once), or set TEMPORAL_CLI_PATH.');
    const server = async (label: BenchServer['label']): Promise<BenchServer> => {
      const metricsPort = await freePort();
      const env = await TestWorkflowEnvironment.createLocal({
        server: {
          executable: { type: 'existing-path', path: cli.path },
          ip: '127.0.0.1',
          searchAttributes: [...PROGRESS_ATTRIBUTES],
          log: { format: 'pretty', level: 'error' },
          // As npm start runs them (src/temporal/server-tuning.ts), unless BENCH_TEMPORAL_DEFAULTS=1.
          extraArgs: ['--metrics-port', String(metricsPort), ...(process.env.BENCH_TEMPORAL_DEFAULTS === '1' ? [] : devServerTuningArgs()), ...(label === 'eager' ? ['--dynamic-config-value', EAGER_ACTIVITIES] : [])],
        },
      });
      cleanups.push(() => env.teardown());
      const connection = await Connection.connect({ address: env.address });
      cleanups.push(() => connection.close());
      const pid = devServerPid(Number(env.address.split(':').at(-1)));
      return {
        label,
        address: env.address,
        ...(pid !== undefined ? { pid } : {}),
        client: new Client({ connection, namespace: 'default', dataConverter }),
        metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
      };
    };
    const plain = await server('default');
    const eager = await server('eager');
    const info = await plain.client.connection.workflowService.getSystemInfo({});

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-perf-'));
    cleanups.push(() => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })));
    const hostRoot = process.env.BENCH_HOST_ROOT ? path.resolve(process.env.BENCH_HOST_ROOT) : undefined;
    const [host, floor] = await Promise.all([
      bundleWorkflowCode({
        workflowsPath: path.join(hostRoot ?? REPO_ROOT, 'src/workflows'),
        logger: quietLogger,
        preloadModules: treePreloadModules(hostRoot ?? REPO_ROOT),
        workflowInterceptorModules: treeInterceptorModules(hostRoot ?? REPO_ROOT),
      }),
      bundleWorkflowCode({ workflowsPath: require.resolve('./floor-workflows'), logger: quietLogger }),
    ]);
    const beforeRoot = process.env.BENCH_BEFORE_ROOT ? path.resolve(process.env.BENCH_BEFORE_ROOT) : undefined;
    let before: PerfEnv['before'];
    if (beforeRoot) {
      const bundled = await bundleWorkflowCode({
        workflowsPath: path.join(beforeRoot, 'src/workflows'),
        logger: quietLogger,
        preloadModules: treePreloadModules(beforeRoot),
        workflowInterceptorModules: treeInterceptorModules(beforeRoot),
      });
      const bundle = path.join(dir, 'before-bundle.js');
      fs.writeFileSync(bundle, bundled.code);
      let label = path.basename(beforeRoot);
      try {
        label = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: beforeRoot, encoding: 'utf8' }).trim();
      } catch {
        // not a git tree: its directory name
      }
      before = { root: beforeRoot, bundle, label };
    }
    const hostBundle = path.join(dir, 'host-bundle.js');
    const floorBundle = path.join(dir, 'floor-bundle.js');
    fs.writeFileSync(hostBundle, host.code);
    fs.writeFileSync(floorBundle, floor.code);

    const model = await startFakeModel();
    cleanups.push(() => model.close());
    // The traced host's spans go to a real Jaeger, as in production they go to a collector.
    const jaeger = jaegerInstalled() ? await startJaeger() : undefined;
    if (jaeger) cleanups.push(() => jaeger.stop());
    return {
      servers: { plain, eager },
      hostBundle,
      floorBundle,
      ...(hostRoot ? { hostRoot } : {}),
      ...(before ? { before } : {}),
      model,
      versions: `${cliVersion(cli.path)}, its dev server reports ${info.serverVersion ?? '?'}`,
      ...(jaeger ? { tracesUrl: jaeger.otlpHttpUrl } : {}),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
