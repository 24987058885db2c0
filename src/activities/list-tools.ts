import type { ToolCatalogCache } from '../mcp/tool-catalog';
import { classified } from '../errors/classify-error';
import type { ListToolsInput, ListToolsResult } from './types';
import { withHeartbeats } from './with-heartbeats';

/**
 * The `listTools` activity: the current catalogue, or just "unchanged" when the workflow already
 * holds it, so each turn's check costs a few bytes of history.
 */
export function createListTools(catalog: ToolCatalogCache): (input: ListToolsInput) => Promise<ListToolsResult> {
  // Listing connects to every server, which can take a while: heartbeats tell a slow listing from a lost worker.
  return (input) =>
    withHeartbeats(classified(async () => {
      const current = await catalog.current();
      return current.digest === input.knownDigest ? { changed: false } : { changed: true, catalog: current };
    }));
}
