/**
 * Entry point of the seed's weather MCP server.
 *
 *   node --import tsx src/example-servers/weather/main.ts               # stdio (default)
 *   node --import tsx src/example-servers/weather/main.ts --http 8931   # Streamable HTTP
 *   WEATHER_HTTP_PORT=0 node --import tsx src/example-servers/weather/main.ts
 *
 * Both protocol eras on either transport: a 2025 client opens with `initialize` (over HTTP that
 * opens a stateful session, `Mcp-Session-Id`), a 2026-07-28 client sends its `_meta` envelope on
 * every request and needs no handshake (over HTTP, no session).
 *
 * Over HTTP it serves http://127.0.0.1:PORT/mcp and prints
 * `weather-server listening on http://127.0.0.1:PORT/mcp` to stderr; port 0 picks a free port and
 * the line carries the real one, so a parent process can read it.
 * Everything it logs goes to stderr: in stdio mode stdout is the JSON-RPC channel.
 */
import { serveHttp } from '../serve-http';
import { serveStdio } from '../serve-stdio';
import { createWeatherServer } from './server';

function log(message: string): void {
  process.stderr.write(`weather-server: ${message}\n`);
}

/** The HTTP port from `--http PORT`, `--http=PORT` or WEATHER_HTTP_PORT; undefined means stdio. */
function httpPort(argv: readonly string[], env: NodeJS.ProcessEnv): number | undefined {
  let raw: string | undefined;
  const index = argv.indexOf('--http');
  if (index >= 0) {
    raw = argv[index + 1] ?? '';
  } else {
    const inline = argv.find((arg) => arg.startsWith('--http='));
    raw = inline !== undefined ? inline.slice('--http='.length) : env.WEATHER_HTTP_PORT;
  }
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid HTTP port ${JSON.stringify(raw)} (want --http PORT, 0-65535)`);
  }
  return port;
}

/** Serves over stdio until stdin closes or a signal arrives, then exits the process. */
async function serveWeatherStdio(): Promise<void> {
  await serveStdio(() => createWeatherServer(log), log);
  log('ready on stdio');
}

/** Listens on 127.0.0.1:port until a signal arrives. */
async function serveWeatherHttp(port: number): Promise<void> {
  const url = await serveHttp(() => createWeatherServer(log), { port, log });
  // The one line a parent process parses for the port; keep its wording stable.
  process.stderr.write(`weather-server listening on ${url.href}\n`);
}

async function main(): Promise<void> {
  const port = httpPort(process.argv.slice(2), process.env);
  if (port === undefined) await serveWeatherStdio();
  else await serveWeatherHttp(port);
}

main().catch((error: unknown) => {
  log(`fatal: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
