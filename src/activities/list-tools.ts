import type { ToolCatalogCache } from '../mcp/tool-catalog';
import { classified } from '../errors/classify-error';
import type { ListToolsInput, ListToolsResult } from './types';

/**
 * The `listTools` activity: the current catalogue, or just "unchanged" when the workflow already
 * holds it, so each turn's check costs a few bytes of history.
 */
export function createListTools(catalog: ToolCatalogCache): (input: ListToolsInput) => Promise<ListToolsResult> {
  return (input) =>
    classified(async () => {
      const current = await catalog.current();
      return current.digest === input.knownDigest ? { changed: false } : { changed: true, catalog: current };
    });
}
