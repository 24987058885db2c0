/**
 * The server's config: the module's own `config/development-postgres12.yaml` with every port moved
 * to a free loopback port (so the cluster runs beside a dev server on 7233), PostgreSQL's port,
 * and our dynamic config file. Each edit must match exactly as often as expected, so a changed
 * upstream file fails loudly instead of silently keeping a default port.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { freePort } from '../../src/temporal/free-port';

/** The config folder, the `--env` name the server loads from it, and the frontend's address. */
export interface ServerConfig {
  configDir: string;
  env: string;
  frontendAddress: string;
}

const COMPOSE_FILE = path.resolve(__dirname, '../../docker-compose.yml');
const HEREDOC_START = "cat > /tmp/dynamicconfig.yaml <<'EOF'";

/**
 * The dynamic config file docker-compose.yml writes for its server (the text of its heredoc), so
 * the cluster test runs what the compose file promises: VARCHAR(255) id columns in the SQL schema
 * (the default 1000 suits Elasticsearch), and the settings of src/temporal/server-tuning.ts.
 */
export function composeDynamicConfig(compose: string = fs.readFileSync(COMPOSE_FILE, 'utf8')): string {
  const lines = compose.split('\n');
  const start = lines.findIndex((line) => line.trim() === HEREDOC_START);
  const end = lines.findIndex((line, i) => i > start && line.trim() === 'EOF');
  if (start < 0 || end < 0) throw new Error(`docker-compose.yml: no dynamic config heredoc (${HEREDOC_START} … EOF)`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length));
  return `${body.map((line) => line.slice(indent)).join('\n')}\n`;
}

/**
 * The Temporal version docker-compose.yml runs (the default of its `TEMPORAL_VERSION`, which every
 * `temporalio/server` and `admin-tools` image line uses), so the cluster builds the release the
 * compose file promises. Refused unless every such line agrees.
 */
export function composeTemporalVersion(compose: string = fs.readFileSync(COMPOSE_FILE, 'utf8')): string {
  const versions = [...compose.matchAll(/image: temporalio\/(?:server|admin-tools):\$\{TEMPORAL_VERSION:-([0-9][0-9A-Za-z.+-]*)\}/g)].map((m) => m[1]!);
  const distinct = [...new Set(versions)];
  if (distinct.length !== 1) {
    throw new Error(`docker-compose.yml: expected one TEMPORAL_VERSION default on its temporalio/server and admin-tools images, found ${distinct.length === 0 ? 'none' : distinct.join(', ')}`);
  }
  return distinct[0]!;
}

const FRONTEND_GRPC = 'grpcPort: 7233';
/** The other gRPC ports, frontend's HTTP API, pprof. */
const OTHER_PORTS = ['httpPort: 7243', 'grpcPort: 7234', 'grpcPort: 7235', 'grpcPort: 7239', 'port: 7936'];
/** Ringpop's ports: stored in a SMALLINT column (cluster_membership.rpc_port), so they must stay below 32768. */
const MEMBERSHIP_PORTS = ['membershipPort: 6933', 'membershipPort: 6934', 'membershipPort: 6935', 'membershipPort: 6939'];

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free 127.0.0.1 port in 20000–32767: the OS hands out ephemeral ports above 32767, which the SMALLINT refuses. */
async function freeMembershipPort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port between 20000 and 32767 for the server\'s membership');
}

function replaceExactly(text: string, from: string, to: string, times: number): string {
  const found = text.split(from).length - 1;
  if (found !== times) throw new Error(`development-postgres12.yaml: expected ${times}× "${from}", found ${found}`);
  return text.split(from).join(to);
}

/** Writes `<dir>/config/cluster.yaml` and `<dir>/dynamicconfig.yaml`. */
export async function writeServerConfig(dir: string, moduleDir: string, postgresPort: number): Promise<ServerConfig> {
  let yaml = fs.readFileSync(path.join(moduleDir, 'config', 'development-postgres12.yaml'), 'utf8');
  const frontendPort = await freePort();
  yaml = replaceExactly(yaml, `${FRONTEND_GRPC}\n`, `grpcPort: ${frontendPort}\n`, 1);
  for (const [lines, pick] of [[OTHER_PORTS, freePort], [MEMBERSHIP_PORTS, freeMembershipPort]] as const) {
    for (const line of lines) yaml = replaceExactly(yaml, `${line}\n`, `${line.replace(/\d+$/, String(await pick()))}\n`, 1);
  }
  yaml = replaceExactly(yaml, 'listenAddress: "127.0.0.1:8000"', `listenAddress: "127.0.0.1:${await freePort()}"`, 1);
  yaml = replaceExactly(yaml, 'rpcAddress: "localhost:7233"', `rpcAddress: "127.0.0.1:${frontendPort}"`, 1);
  yaml = replaceExactly(yaml, 'connectAddr: "127.0.0.1:5432"', `connectAddr: "127.0.0.1:${postgresPort}"`, 2);
  yaml = replaceExactly(yaml, 'level: info', 'level: warn', 1);
  const dynamicConfig = path.join(dir, 'dynamicconfig.yaml');
  yaml = replaceExactly(yaml, 'filepath: "config/dynamicconfig/development-sql.yaml"', `filepath: ${JSON.stringify(dynamicConfig)}`, 1);

  const configDir = path.join(dir, 'config');
  fs.mkdirSync(configDir);
  fs.writeFileSync(path.join(configDir, 'cluster.yaml'), yaml);
  fs.writeFileSync(dynamicConfig, composeDynamicConfig());
  return { configDir, env: 'cluster', frontendAddress: `127.0.0.1:${frontendPort}` };
}
