/**
 * Section 3, start-up: the worker's ready time (spawn → first poll seen by the server) for the
 * compiled worker with the prebuilt bundle (`node dist/worker/main.js`, what `npm run worker` and
 * the image run) against a bare Temporal worker with a prebuilt bundle of an empty workflow (the
 * floor's, plain Node); and `mcp-host send` end to end (a new process: load, connect, send the
 * turn, print the answer) against the same send from a client already running in this process.
 * Each pair alternates.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { sendMessage, startConversation } from '../../src/client/commands';
import { DEFAULTS } from '../../src/config/settings';
import { median } from '../median';
import { userText } from '../turn-settings';
import { REQUEST_AS_PLAIN } from './conversations';
import { endTurnAtOnce } from './fake-model';
import type { PerfEnv } from './perf-env';
import { measureReady } from './ready-time';
import { startWorker } from './worker-process';

const REPO_ROOT = path.resolve(__dirname, '../..');

export interface StartupResult {
  repeat: number;
  hostReady: number[];
  floorReady: number[];
  cliSend: number[];
  inProcessSend: number[];
}

/** `npm run build` if dist/ is older than the source (under the shared build lock when there is one). */
function buildIfStale(): void {
  const build = ['tsx', path.join(REPO_ROOT, 'scripts/build.ts'), '--if-stale'];
  const hasFlock = spawnSync('flock', ['--version'], { stdio: 'ignore' }).status === 0;
  const result = hasFlock
    ? spawnSync('flock', ['/tmp/durable-build.lock', 'npx', ...build], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
    : spawnSync('npx', build, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('the build failed');
}

function runCli(args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/mcp-host.js'), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`mcp-host ${args[0] ?? ''} exited ${String(code)}: ${stderr}`))));
  });
}

export async function runStartup(env: PerfEnv, options: { repeat: number; nextTag: () => number }): Promise<StartupResult> {
  buildIfStale();
  const { eager } = env.servers;
  const connection = eager.client.connection;
  const result: StartupResult = { repeat: options.repeat, hostReady: [], floorReady: [], cliSend: [], inProcessSend: [] };
  for (let r = 0; r < options.repeat; r++) {
    const host = async (): Promise<void> => {
      const taskQueue = `ready-${randomUUID()}`;
      result.hostReady.push(await measureReady(connection, [path.join(REPO_ROOT, 'dist/worker/main.js')], {
        TEMPORAL_ADDRESS: eager.address,
        MCP_HOST_TASK_QUEUE: taskQueue,
        MCP_CONFIG: path.join(REPO_ROOT, 'mcp.json'),
        ANTHROPIC_API_KEY: 'sk-ant-bench-not-a-real-key',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      }, taskQueue));
    };
    const floor = async (): Promise<void> => {
      const taskQueue = `ready-floor-${randomUUID()}`;
      result.floorReady.push(await measureReady(connection, [path.join(REPO_ROOT, 'bench/perf/floor-worker.cjs')], {
        BENCH_ADDRESS: eager.address,
        BENCH_TASK_QUEUE: taskQueue,
        BENCH_BUNDLE: env.floorBundle,
      }, taskQueue));
    };
    if (r % 2 === 0) {
      await floor();
      await host();
    } else {
      await host();
      await floor();
    }
    process.stderr.write(`  ready ${r + 1}/${options.repeat}: host ${((result.hostReady.at(-1) ?? 0) / 1000).toFixed(2)} s, bare worker ${((result.floorReady.at(-1) ?? 0) / 1000).toFixed(2)} s\n`);
  }

  const taskQueue = `perf-cli-${randomUUID()}`;
  const worker = await startWorker({ kind: 'host', address: eager.address, taskQueue, bundlePath: env.hostBundle, claudeUrl: env.model.url, ...(env.hostRoot ? { srcRoot: env.hostRoot } : {}) });
  const tag = options.nextTag();
  env.model.play(tag, endTurnAtOnce, 0);
  try {
    const { id } = await startConversation({ client: eager.client, taskQueue }, userText(tag), {
      wait: true,
      defaultModel: DEFAULTS.model,
      conversation: { maxIterations: 2, ...REQUEST_AS_PLAIN },
    });
    const cliEnv = { TEMPORAL_ADDRESS: eager.address, MCP_HOST_TASK_QUEUE: taskQueue };
    const inProcess = async (): Promise<void> => {
      const started = performance.now();
      const turn = await sendMessage(eager.client, id, 'And one more thing to note.');
      if (turn.status !== 'completed') throw new Error(`send: ${turn.status}`);
      result.inProcessSend.push(performance.now() - started);
    };
    const cli = async (): Promise<void> => {
      result.cliSend.push(await runCli(['send', id, 'And one more thing to note.'], cliEnv));
    };
    await inProcess(); // unmeasured: connections, JIT
    result.inProcessSend.length = 0;
    for (let r = 0; r < options.repeat; r++) {
      if (r % 2 === 0) {
        await inProcess();
        await cli();
      } else {
        await cli();
        await inProcess();
      }
    }
    process.stderr.write(`  send: mcp-host ${(median(result.cliSend) / 1000).toFixed(2)} s, in-process ${(median(result.inProcessSend) / 1000).toFixed(3)} s\n`);
  } finally {
    env.model.done(tag);
    await worker.stop();
  }
  return result;
}

/** The section's Markdown. */
export function startupReport(result: StartupResult): string[] {
  const s = (values: number[]): string => `${(median(values) / 1000).toFixed(2)} s`;
  const range = (values: number[]): string => `${(Math.min(...values) / 1000).toFixed(2)} – ${(Math.max(...values) / 1000).toFixed(2)} s`;
  return [
    `Medians of ${result.repeat} alternating runs each.`,
    '',
    '| what | median | min – max | baseline (same run) | ratio |',
    '|---|---:|---:|---|---:|',
    `| worker ready: \`node dist/worker/main.js\` (prebuilt bundle, repo's mcp.json) | ${s(result.hostReady)} | ${range(result.hostReady)} | ` +
      `bare Temporal worker, prebuilt empty-workflow bundle: ${s(result.floorReady)} | **${(median(result.hostReady) / median(result.floorReady)).toFixed(2)}×** |`,
    `| \`mcp-host send ID MESSAGE\`, end to end (1 model call) | ${s(result.cliSend)} | ${range(result.cliSend)} | ` +
      `the same send from a running client: ${s(result.inProcessSend)} | ${(median(result.cliSend) / median(result.inProcessSend)).toFixed(1)}× |`,
  ];
}
