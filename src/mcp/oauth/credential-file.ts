import { readFileSync } from 'node:fs';
import { HostError } from '../../errors/host-error';

/**
 * The text of a file holding an OAuth credential (a client secret, a private key, a workload's
 * token), read in the worker when it is needed.
 * @param field The mcp.json field that names the file (`clientSecretFile`…), for the message.
 * @throws HostError (`mcp.connect_failed`, not retried: the same file gives the same answer) when it cannot be read.
 */
export function readCredentialFile(server: string, field: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    throw new HostError(`MCP server "${server}": cannot read oauth.${field} ${JSON.stringify(path)} (${why})`, 'mcp.connect_failed', false);
  }
}
