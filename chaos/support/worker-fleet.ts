/**
 * The worker processes of a scenario: the compiled worker (`dist/worker/main.js` of the tree
 * under test) with the lab MCP server, one call log per worker, so the suite can see which
 * worker was running which tool call. Workers are killed by process group, as a crashed host
 * would be, and every start is timed.
 */
import * as path from 'node:path';
import type { McpServerConfig } from '../../src/mcp/config';
import { tsServer } from '../../test/support/repo';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../../test/support/worker-process';

/** A worker process of the fleet. */
export interface FleetWorker {
  process: WorkerProcess;
  /** The lab server's call log of this worker. */
  labLog: string;
  spawnedAt: number;
  readyAt: number;
  /** When it was killed or stopped. */
  endedAt?: number;
}

/** How the fleet's workers are made. */
export interface FleetOptions {
  address: string;
  taskQueue: string;
  claudeBaseUrl: string;
  /** Where the call logs and mcp.json files go. */
  dir: string;
  /** The tree whose `dist/worker/main.js` runs (default: this repo). */
  root?: string;
  /** More MCP servers beside the lab server (for the MCP fault scenarios). */
  extraServers?: (labLog: string) => McpServerConfig[];
  /** More environment for the workers. */
  env?: Record<string, string>;
}

/** Workers of every fleet not yet ended: killed with their groups should the runner exit early (Ctrl-C). */
const running = new Set<FleetWorker>();
process.once('exit', () => {
  for (const worker of running) worker.process.kill9Group();
});

/** The workers of a scenario, all of them, dead or alive. */
export class WorkerFleet {
  readonly workers: FleetWorker[] = [];

  constructor(private readonly options: FleetOptions) {}

  /** Starts one more worker (on the fleet's address, or `address`, e.g. a relay's); resolves once it polls. */
  async spawn(address: string = this.options.address): Promise<FleetWorker> {
    const labLog = path.join(this.options.dir, `lab-${this.workers.length + 1}.log`);
    const servers = [tsServer('lab', 'test/fixtures/lab-server.ts', { LAB_LOG: labLog }), ...(this.options.extraServers?.(labLog) ?? [])];
    const spawnedAt = Date.now();
    const process = await spawnWorkerProcess({
      address,
      taskQueue: this.options.taskQueue,
      mcpConfigPath: writeMcpConfig(servers),
      claudeBaseUrl: this.options.claudeBaseUrl,
      ...(this.options.root !== undefined ? { root: this.options.root } : {}),
      env: {
        ...this.options.env,
        // e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: profiles of the workers under a scenario.
        ...(globalThis.process.env.CHAOS_WORKER_NODE_OPTIONS ? { NODE_OPTIONS: globalThis.process.env.CHAOS_WORKER_NODE_OPTIONS } : {}),
      },
    });
    const worker: FleetWorker = { process, labLog, spawnedAt, readyAt: Date.now() };
    this.workers.push(worker);
    running.add(worker);
    return worker;
  }

  /** The workers not killed or stopped. */
  alive(): FleetWorker[] {
    return this.workers.filter((w) => w.endedAt === undefined);
  }

  /** `kill -9` of the worker's process group (the worker and its MCP servers); resolves once it is gone. */
  async kill(worker: FleetWorker): Promise<number> {
    const at = Date.now();
    worker.process.kill9Group();
    worker.endedAt = at;
    running.delete(worker);
    await worker.process.exited;
    return at;
  }

  /** Every call log, in worker order. */
  labLogs(): string[] {
    return this.workers.map((w) => w.labLog);
  }

  /** Each worker's pid and when it was spawned: history events name the worker that handled them by pid. */
  spawnedAtByPid(): Map<number, number> {
    return new Map(this.workers.map((w) => [w.process.pid, w.spawnedAt]));
  }

  /** Stops every live worker gracefully (SIGTERM, then the group's SIGKILL if it hangs). */
  async stopAll(): Promise<void> {
    for (const worker of this.alive()) {
      worker.endedAt = Date.now();
      await worker.process.stop();
      running.delete(worker);
    }
  }
}
