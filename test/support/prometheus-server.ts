/**
 * A real Prometheus server (Debian's `prometheus` package, 2.42 in Debian 12) for the metrics tests:
 * its own temp dir, config and port on 127.0.0.1, scraping one target every second, queried through
 * its HTTP API (`/api/v1/query`, `/api/v1/series`) as a dashboard would.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/temporal/free-port';
import { pollUntil } from './poll-until';
import { stopServerProcess } from './stop-server-process';

/** What the tests need to know to run or skip: `prometheus` on PATH (`.ci/run` installs it). */
export const PROMETHEUS = { name: 'prometheus (Debian package)', install: 'apt-get install -y prometheus' };

/** True when the `prometheus` binary runs. */
export function prometheusInstalled(): boolean {
  return spawnSync('prometheus', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** One sample of an instant query: its labels and value. */
export interface PromSample {
  metric: Record<string, string>;
  value: number;
}

/** A running Prometheus. */
export interface PrometheusServer {
  url: string;
  /** An instant query's samples. */
  query(promql: string): Promise<PromSample[]>;
  /** The single value of an instant query (a `sum(...)`), undefined when it has no sample. */
  value(promql: string): Promise<number | undefined>;
  /** Every series Prometheus holds matching `match` (their full label sets). */
  series(match: string): Promise<Array<Record<string, string>>>;
  /** Prometheus's own output so far (for failures). */
  output(): string;
  stop(): Promise<void>;
}

interface ApiAnswer<T> {
  status: string;
  data: T;
  error?: string;
}

async function api<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const body = (await response.json()) as ApiAnswer<T>;
  if (body.status !== 'success') throw new Error(`Prometheus: ${body.error ?? response.status}`);
  return body.data;
}

/** Starts Prometheus scraping `target` (`host:port`) every second; resolves once it is ready. */
export async function startPrometheus(target: string): Promise<PrometheusServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-prometheus-'));
  const port = await freePort();
  const config = path.join(dir, 'prometheus.yml');
  fs.writeFileSync(
    config,
    ['global:', '  scrape_interval: 1s', '  evaluation_interval: 1s', 'scrape_configs:', '  - job_name: mcp-host-worker', '    static_configs:', `      - targets: ['${target}']`, ''].join('\n'),
  );
  const child: ChildProcess = spawn('prometheus', [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stdout?.on('data', (d: Buffer) => lines.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => lines.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const server: PrometheusServer = {
    url,
    query: async (promql) => {
      const data = await api<{ result: Array<{ metric: Record<string, string>; value: [number, string] }> }>(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      return data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    value: async (promql) => {
      const samples = await server.query(promql);
      if (samples.length > 1) throw new Error(`${promql} has ${samples.length} samples`);
      return samples[0]?.value;
    },
    series: (match) => api<Array<Record<string, string>>>(`${url}/api/v1/series?match[]=${encodeURIComponent(match)}`),
    output: () => lines.join(''),
    stop: () => stopServerProcess(child, exited, dir),
  };
  try {
    await pollUntil('Prometheus to be ready', async () => (await fetch(`${url}/-/ready`)).ok, 30_000);
  } catch (err) {
    await server.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}:\n${server.output()}`);
  }
  return server;
}
