/**
 * The tool-search section of `npm run bench` (bench/main.ts), also runnable alone
 * (`npx tsx bench/tool-search.ts`): what tool definitions cost a conversation at 50, 200 and 500
 * tools, sent in full on every request against the API's tool search (issue 29), both built by the
 * host's own request builder (`requestTools`, src/claude/request-tools.ts) over a catalogue of the
 * many-tools fixture's shape (test/fixtures/many-tools-server.ts: each tool with its description and
 * two described arguments).
 *
 * The scenario, 10 rounds of one conversation: each round Claude searches once (a query naming one
 * area and action, as a user would ask) and the search loads the definitions it references (the
 * host's BM25 emulation of the API's search, src/offline/tool-search-emulation.ts, at most 5), which
 * stay in context for the rounds after. Tokens are estimated as characters of JSON / 4, as the
 * host's guard estimates. Counted per round:
 * - full list: every definition, every round;
 * - tool search: the search tool and the tools kept loaded (none here), plus every definition loaded
 *   so far (deferred definitions are not in context: only what a search references);
 * - with prompt caching (the host sets breakpoints on tools and the moving end): a definition is
 *   written to the cache once (1.25×) and read after (0.1×), as the API prices cache writes and reads.
 * Pure computation: the figures do not depend on the machine; no repetition or median is needed.
 */
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { requestTools } from '../src/claude/request-tools';
import { toolDefinitionTokens, type RequestTool } from '../src/claude/tool-search';
import { bm25Search, deferredTools } from '../src/offline/tool-search-emulation';
import { manyTools } from '../test/fixtures/many-tools-server';

const SIZES = [50, 200, 500] as const;
const ROUNDS = 10;
const CACHE_WRITE = 1.25;
const CACHE_READ = 0.1;
const AREAS = ['billing', 'calendar', 'crm', 'deploy', 'docs', 'email', 'inventory', 'metrics', 'search', 'tickets'];
const ACTIONS = ['create', 'update', 'delete', 'list', 'archive', 'export'];

/** The catalogue as Claude sees it: the fixture's tools with its argument schema. */
function catalogue(count: number): Tool[] {
  return manyTools(count).map(({ name, description }) => ({
    name,
    description,
    input_schema: {
      type: 'object',
      properties: {
        record: { type: 'string', description: 'The record id, e.g. R-17' },
        note: { type: 'string', description: 'A free-text note kept with the change' },
      },
      required: ['record'],
    },
  }));
}

/** One size's figures. */
export interface ToolSearchRow {
  tools: number;
  fullBytes: number;
  searchBytes: number;
  /** Definition tokens over the rounds, uncached and cache-weighted. */
  fullTokens: number;
  searchTokens: number;
  fullCached: number;
  searchCached: number;
  /** Definitions the searches loaded by the last round. */
  loaded: number;
}

function bytes(tools: readonly RequestTool[]): number {
  return Buffer.byteLength(JSON.stringify(tools));
}

/** Runs the scenario for a catalogue of `count` tools. */
export function measure(count: number): ToolSearchRow {
  const tools = catalogue(count);
  const full = requestTools(tools, [], { mode: 'off', contextWindow: 200_000 }).tools ?? [];
  const searched = requestTools(tools, [], { mode: 'on', contextWindow: 200_000 }).tools ?? [];
  const base = searched.filter((tool) => !('defer_loading' in tool && tool.defer_loading === true));
  const searchable = deferredTools(searched);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const loaded = new Map<string, Tool>();
  const fullPerRound = toolDefinitionTokens(full);
  const basePerRound = toolDefinitionTokens(base);
  let searchTokens = 0;
  let searchCached = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const before = loaded.size > 0 ? toolDefinitionTokens([...loaded.values()]) : 0;
    const query = `${ACTIONS[round % ACTIONS.length] ?? 'list'} a ${AREAS[(round * 3) % AREAS.length] ?? 'docs'} record`;
    for (const name of bm25Search(query, searchable)) {
      const tool = byName.get(name);
      if (tool !== undefined) loaded.set(name, tool);
    }
    const after = loaded.size > 0 ? toolDefinitionTokens([...loaded.values()]) : 0;
    searchTokens += basePerRound + after;
    // The base is written once and read after; definitions loaded this round are written, earlier ones read.
    searchCached += (round === 0 ? CACHE_WRITE : CACHE_READ) * basePerRound + CACHE_READ * before + CACHE_WRITE * (after - before);
  }
  return {
    tools: count,
    fullBytes: bytes(full),
    searchBytes: bytes(base),
    fullTokens: fullPerRound * ROUNDS,
    searchTokens,
    fullCached: fullPerRound * (CACHE_WRITE + CACHE_READ * (ROUNDS - 1)),
    searchCached,
    loaded: loaded.size,
  };
}

function saved(ours: number, baseline: number): string {
  return `${(100 * (1 - ours / baseline)).toFixed(1)}% less (×${(ours / baseline).toFixed(3)})`;
}

/** The section's Markdown. */
export function toolSearchReport(rows: readonly ToolSearchRow[] = SIZES.map(measure)): string[] {
  return [
    `${ROUNDS} rounds of one conversation, one search a round (BM25, at most 5 references), the definitions it loads staying in context; tokens ≈ JSON characters / 4; cached: a definition written once (×${CACHE_WRITE}), read after (×${CACHE_READ}).`,
    '',
    '| tools | definition bytes per request: full → search | tokens over 10 rounds: full → search | saved | with prompt caching: full → search | saved | loaded by search |',
    '|---:|---|---|---|---|---|---:|',
    ...rows.map(
      (r) =>
        `| ${r.tools} | ${r.fullBytes} → ${r.searchBytes} | ${r.fullTokens} → ${r.searchTokens} | ${saved(r.searchTokens, r.fullTokens)} | ${Math.round(r.fullCached)} → ${Math.round(r.searchCached)} | ${saved(r.searchCached, r.fullCached)} | ${r.loaded} |`,
    ),
    '',
    'A deferred tool found by search and called end to end, on a real MCP server through the worker: `npx jest test/integration/tool-search.test.ts`.',
  ];
}

if (require.main === module) console.log(toolSearchReport().join('\n'));
