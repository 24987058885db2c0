/**
 * The loopback redirect of `mcp-host login` (RFC 8252 §7.3): a one-shot HTTP listener on
 * 127.0.0.1 that takes the authorization server's redirect, checks its `state`, and hands over the
 * redirect's parameters (the code, and the issuer `iss` of RFC 9207 that the SDK v2 checks against the
 * authorization server's metadata). The browser gets a short page saying whether to go back to the terminal.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening loopback redirect. */
export interface LoopbackCallback {
  /** `http://127.0.0.1:<port>/callback`, to register and send as `redirect_uri`. */
  redirectUrl: string;
  /**
   * The parameters of the first redirect that carries `state` and a code (`code`, `state`, `iss`);
   * rejects on an error redirect or after `timeoutMs`.
   */
  response(state: string | undefined, timeoutMs: number): Promise<URLSearchParams>;
  close(): Promise<void>;
}

const PATH = '/callback';

function page(text: string): string {
  return `<!doctype html><meta charset="utf-8"><title>mcp-host login</title><p>${text}</p>`;
}

/** Listens on 127.0.0.1:`port` (0: any free port). */
export async function listenForCallback(port: number): Promise<LoopbackCallback> {
  let settle: { resolve(params: URLSearchParams): void; reject(err: Error): void } | undefined;
  let expectedState: string | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== PATH || settle === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end(page('Not found.'));
      return;
    }
    if (expectedState !== undefined && url.searchParams.get('state') !== expectedState) {
      // Not the redirect of this login (a stale tab, or a forged request): ignored, the login waits on.
      res.writeHead(400, { 'content-type': 'text/html' }).end(page('This is not the authorization this login is waiting for.'));
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || code === null) {
      const why = error !== null ? `the authorization server answered "${error}"${url.searchParams.has('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}` : 'the redirect carries no code';
      res.writeHead(400, { 'content-type': 'text/html' }).end(page(`Login failed: ${why}. See the terminal.`));
      settle.reject(new Error(`login failed: ${why}`));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(page('Login complete. You can close this tab and go back to the terminal.'));
    settle.resolve(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${bound}${PATH}`,
    response(state, timeoutMs) {
      expectedState = state;
      return new Promise<URLSearchParams>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no authorization came back within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
        settle = {
          resolve: (params) => {
            clearTimeout(timer);
            resolve(params);
          },
          reject: (err) => {
            clearTimeout(timer);
            reject(err);
          },
        };
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
