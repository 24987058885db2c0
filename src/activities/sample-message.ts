/**
 * The `sampleMessage` activity: a server's MCP `sampling/createMessage` (the server asks the host's
 * LLM for a completion), answered by one streamed Messages API call. The server's params are mapped
 * to a Claude request (messages, system prompt, tools, tool choice, stop sequences, temperature) and
 * the reply back to an MCP `CreateMessageResult`. The call is a Claude call like `callClaude` and
 * `summarizeContext`: streamed, heartbeating, with the same time limits and the same failure
 * classification (`src/errors/classify-error.ts`), so a 529 is retried and a 400 is not.
 *
 * What the host decides, whatever the server asks:
 * - the model: the server's `modelPreferences` only choose among the Claude models the host knows
 *   ({@link samplingModel}), else the conversation's own model;
 * - `max_tokens`: never above the host's cap (`maxTokensCap`);
 * - `includeContext` is ignored: the host never sends its conversation (nor another server's
 *   exchanges) to a server; the completion sees only what the server itself sent;
 * - `metadata` is ignored: MCP leaves it provider-specific, and the Messages API's own `metadata`
 *   takes only a `user_id`, which a server has no business setting.
 *
 * A request Claude would refuse as malformed (roles that cannot alternate, a `tool_use` left
 * unanswered, a tool without an object schema) fails here, before any call, non-retryable
 * (`host.invalid_transcript`): the same params would fail the same way on every attempt.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlock,
  ContentBlockParam,
  DocumentBlockParam,
  ImageBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolChoice,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { Context } from '@temporalio/activity';
import { toReplyUsage } from '../claude/reply-usage';
import { requestTools } from '../claude/request-tools';
import { streamMessage } from '../claude/stream-message';
import { transcriptProblem } from '../context/validate-pairing';
import { claudeCallLimits } from '../errors/claude-time-limits';
import { classified } from '../errors/classify-error';
import { HostError } from '../errors/host-error';
import { toClaudeTool } from '../mcp/claude-tool';
import { assignClaudeToolNames } from '../mcp/tool-names';
import { toToolResultContent } from '../mcp/tool-result';
import { DEFAULT_CONTEXT_WINDOWS } from '../models/context-windows';
import { lookupByModel } from '../models/lookup-by-model';
import { DEFAULT_PRICE_TABLE } from '../models/model-prices';
import type { SamplingInput, SamplingOutput } from './types';
import { withHeartbeats } from './with-heartbeats';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A malformed sampling request: the same params fail the same way on every attempt. */
function invalid(message: string): HostError {
  return new HostError(`the server's sampling request cannot be sent to Claude: ${message}`, 'host.invalid_transcript', false);
}

// ---------------------------------------------------------------------------------------------
// Model choice
// ---------------------------------------------------------------------------------------------

/** MCP `ModelPreferences`, as a server may send them (every field optional, nothing trusted). */
export interface SamplingModelPreferences {
  hints?: Array<{ name?: string }>;
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** The Claude model families a hint or a priority can name. */
const FAMILIES = ['opus', 'sonnet', 'haiku'] as const;
type Family = (typeof FAMILIES)[number];

/** A priority at or above this is a strong wish. */
const STRONG_PRIORITY = 0.8;

/** The Claude model ids the host knows: the keys of its price and context-window tables. */
const KNOWN_MODELS: readonly string[] = [...new Set([...Object.keys(DEFAULT_PRICE_TABLE), ...Object.keys(DEFAULT_CONTEXT_WINDOWS)])];

/** A known id's family and version: `claude-opus-4-5` and `claude-3-5-haiku` alike. */
function parseModel(id: string): { family: Family; version: [number, number] } | undefined {
  const match = /^claude-(?:(opus|sonnet|haiku)-(\d+)(?:-(\d+))?|(\d+)(?:-(\d+))?-(opus|sonnet|haiku))$/.exec(id);
  if (!match) return undefined;
  const family = (match[1] ?? match[6]) as Family;
  const major = Number(match[2] ?? match[4]);
  const minor = Number(match[3] ?? match[5] ?? 0);
  return { family, version: [major, minor] };
}

/** The newest of `ids` by version (the first of equals), or undefined for none. */
function newest(ids: readonly string[]): string | undefined {
  let best: { id: string; version: [number, number] } | undefined;
  for (const id of ids) {
    const parsed = parseModel(id);
    if (!parsed) continue;
    const [major, minor] = parsed.version;
    if (!best || major > best.version[0] || (major === best.version[0] && minor > best.version[1])) best = { id, version: parsed.version };
  }
  return best?.id;
}

/** The newest known model of a family. */
function newestOf(family: Family): string | undefined {
  return newest(KNOWN_MODELS.filter((id) => parseModel(id)?.family === family));
}

/** The family words a name contains. */
function familiesIn(name: string): Family[] {
  return FAMILIES.filter((family) => name.includes(family));
}

/**
 * The model one hint names, or undefined when it names none or any Claude model alike:
 * - a known id, or a dated or aliased form of one (`claude-sonnet-4-5-20250929`): that id as given;
 * - a substring of known ids of a single family (`sonnet-4`, `claude-3-5`): the newest of them;
 * - a name with one family word in it (`sonnet`, `claude-3-sonnet`): the newest of that family.
 * A hint matching several families (`claude`, `claude-4`) says only "a Claude model": skipped.
 */
function hintedModel(hint: string): string | undefined {
  const name = hint.trim().toLowerCase();
  if (name === '') return undefined;
  if (lookupByModel(Object.fromEntries(KNOWN_MODELS.map((id) => [id, true])), name)) return name;
  const matching = KNOWN_MODELS.filter((id) => id.includes(name));
  if (matching.length > 0 && new Set(matching.map((id) => parseModel(id)?.family)).size === 1) return newest(matching);
  const families = familiesIn(name);
  return families.length === 1 && families[0] !== undefined ? newestOf(families[0]) : undefined;
}

function priority(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * The Claude model a sampling request runs on, from the server's `modelPreferences` (MCP: hints are
 * substrings of model names, tried in order; priorities in 0..1). Pure.
 * - The first hint naming a known Claude model or family decides ({@link hintedModel}).
 * - Else intelligencePriority ≥ 0.8 and above both speed and cost: an opus model; speedPriority or
 *   costPriority ≥ 0.8: a haiku model. The conversation's model when it is of that family (the
 *   user's choice stands), else the newest of the family the host knows.
 * - Else the conversation's model.
 */
export function samplingModel(preferences: SamplingModelPreferences | undefined, conversationModel: string): string {
  if (!isRecord(preferences)) return conversationModel;
  const hints: unknown = preferences.hints;
  if (Array.isArray(hints)) {
    for (const hint of hints as unknown[]) {
      const name = isRecord(hint) && typeof hint.name === 'string' ? hint.name : undefined;
      const model = name === undefined ? undefined : hintedModel(name);
      if (model !== undefined) return model;
    }
  }
  const intelligence = priority(preferences.intelligencePriority);
  const speed = priority(preferences.speedPriority);
  const cost = priority(preferences.costPriority);
  const family: Family | undefined =
    intelligence >= STRONG_PRIORITY && intelligence > speed && intelligence > cost
      ? 'opus'
      : speed >= STRONG_PRIORITY || cost >= STRONG_PRIORITY
        ? 'haiku'
        : undefined;
  if (family === undefined) return conversationModel;
  if (familiesIn(conversationModel.toLowerCase()).includes(family)) return conversationModel;
  return newestOf(family) ?? conversationModel;
}

// ---------------------------------------------------------------------------------------------
// Request: MCP params → Messages API body
// ---------------------------------------------------------------------------------------------

/** Tool names as Claude sees them, both ways (MCP allows names Claude does not, e.g. with dots). */
interface ToolNames {
  toClaude: Map<string, string>;
  toMcp: Map<string, string>;
}

/** A block Claude takes as MCP content: through the tool-result converter (image types, notes for the rest). */
function convertedContent(blocks: readonly unknown[]): Array<TextBlockParam | ImageBlockParam | DocumentBlockParam> {
  // No cap: the params are already in the history, and the server chose their size.
  const { content } = toToolResultContent({ content: blocks }, { maxChars: Number.POSITIVE_INFINITY });
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** One MCP sampling content block as Claude content blocks (none for blank text). */
function toClaudeBlocks(block: unknown, names: ToolNames, at: string): ContentBlockParam[] {
  if (!isRecord(block)) throw invalid(`${at} is not a content block`);
  switch (block.type) {
    case 'text':
      if (typeof block.text !== 'string') throw invalid(`${at} is a text block without text`);
      // Claude refuses blank text blocks; a message left with nothing else is caught below.
      return block.text.trim() === '' ? [] : [{ type: 'text', text: block.text }];
    case 'audio': {
      const type = typeof block.mimeType === 'string' ? ` (${block.mimeType})` : '';
      return [{ type: 'text', text: `[an audio clip${type} was left out here: Claude does not take audio]` }];
    }
    case 'tool_use': {
      if (typeof block.id !== 'string' || typeof block.name !== 'string') throw invalid(`${at} is a tool_use without an id or name`);
      const input = isRecord(block.input) ? block.input : {};
      return [{ type: 'tool_use', id: block.id, name: names.toClaude.get(block.name) ?? block.name, input }];
    }
    case 'tool_result': {
      if (typeof block.toolUseId !== 'string') throw invalid(`${at} is a tool_result without a toolUseId`);
      const result = toToolResultContent(
        {
          content: Array.isArray(block.content) ? (block.content as unknown[]) : [],
          structuredContent: block.structuredContent,
          isError: block.isError === true,
        },
        { maxChars: Number.POSITIVE_INFINITY },
      );
      const converted: ToolResultBlockParam = { type: 'tool_result', tool_use_id: block.toolUseId, content: result.content };
      return [result.isError ? { ...converted, is_error: true } : converted];
    }
    default:
      // image (a type Claude takes, or a note saying it was left out), and anything a server sends
      // beyond the spec (a resource, a link), as the tool results carry them.
      return convertedContent([block]);
  }
}

/**
 * MCP `SamplingMessage`s as Claude messages. `content` is one block or (MCP 2025-11-25) an array.
 * Consecutive messages of one role are merged, so roles alternate as Claude requires; in a merged
 * user message the tool results go first, as Claude requires too.
 */
function toClaudeMessages(messages: unknown, names: ToolNames): MessageParam[] {
  if (!Array.isArray(messages)) throw invalid('messages is not a list');
  const merged: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = [];
  for (const [i, message] of (messages as unknown[]).entries()) {
    const at = `messages[${i}]`;
    if (!isRecord(message)) throw invalid(`${at} is not a message`);
    const { role } = message;
    if (role !== 'user' && role !== 'assistant') throw invalid(`${at} has role ${JSON.stringify(role)}: only user and assistant`);
    const content: unknown[] = Array.isArray(message.content) ? (message.content as unknown[]) : [message.content];
    const blocks = content.flatMap((block, j) => toClaudeBlocks(block, names, `${at}.content[${j}]`));
    const last = merged[merged.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else merged.push({ role, content: blocks });
  }
  return merged.map(({ role, content }) => ({
    role,
    content: role === 'user' ? [...content.filter((b) => b.type === 'tool_result'), ...content.filter((b) => b.type !== 'tool_result')] : content,
  }));
}

/** The server's tools as Claude tools, with names Claude accepts (mapped back in the result). */
function toClaudeTools(tools: unknown, server: string): { tools: Tool[]; names: ToolNames } {
  const names: ToolNames = { toClaude: new Map(), toMcp: new Map() };
  if (tools === undefined) return { tools: [], names };
  if (!Array.isArray(tools)) throw invalid('tools is not a list');
  const list = tools as unknown[];
  const mcpTools = list.map((tool, i): McpTool => {
    if (!isRecord(tool) || typeof tool.name !== 'string') throw invalid(`tools[${i}] has no name`);
    return tool as unknown as McpTool;
  });
  let claudeNames: string[];
  try {
    claudeNames = assignClaudeToolNames(mcpTools.map((tool) => ({ server, name: tool.name })));
  } catch (error) {
    throw invalid(error instanceof Error ? error.message : String(error));
  }
  const converted = mcpTools.map((tool, i) => {
    const claudeName = claudeNames[i] ?? tool.name;
    names.toClaude.set(tool.name, claudeName);
    names.toMcp.set(claudeName, tool.name);
    try {
      return toClaudeTool(tool, claudeName, server);
    } catch (error) {
      throw invalid(error instanceof Error ? error.message : String(error));
    }
  });
  return { tools: converted, names };
}

/** MCP `toolChoice.mode` → Claude's `tool_choice` (`required` is Claude's `any`). */
function toClaudeToolChoice(choice: unknown): ToolChoice | undefined {
  if (!isRecord(choice)) return undefined;
  switch (choice.mode) {
    case 'auto':
      return { type: 'auto' };
    case 'required':
      return { type: 'any' };
    case 'none':
      return { type: 'none' };
    default:
      return undefined;
  }
}

/** `max_tokens`: what the server asks, never above the host's cap (the cap when it asks nothing usable). */
function cappedMaxTokens(asked: unknown, cap: number): number {
  const limit = Math.max(1, Math.floor(cap));
  return typeof asked === 'number' && Number.isFinite(asked) && asked >= 1 ? Math.min(Math.floor(asked), limit) : limit;
}

/**
 * The Messages API body for a sampling request, the tool names to map back in the result, and
 * whether the server offered tools.
 */
function samplingRequest(input: SamplingInput): { body: MessageCreateParamsBase; names: ToolNames; hadTools: boolean } {
  const { params } = input;
  const { tools, names } = toClaudeTools(params.tools, input.server);
  const messages = toClaudeMessages(params.messages, names);
  const problem = transcriptProblem(messages);
  if (problem !== null) throw invalid(problem);
  const preferences = isRecord(params.modelPreferences) ? (params.modelPreferences as SamplingModelPreferences) : undefined;
  const system = typeof params.systemPrompt === 'string' && params.systemPrompt.trim() !== '' ? params.systemPrompt : undefined;
  // Claude takes 0..1; MCP sets no range.
  const temperature = typeof params.temperature === 'number' && Number.isFinite(params.temperature)
    ? Math.min(1, Math.max(0, params.temperature))
    : undefined;
  // Claude refuses stop sequences that are only whitespace.
  const stops = Array.isArray(params.stopSequences)
    ? (params.stopSequences as unknown[]).filter((s): s is string => typeof s === 'string' && s.trim() !== '')
    : [];
  const toolChoice = tools.length > 0 ? toClaudeToolChoice(params.toolChoice) : undefined;
  // Without tools, messages holding tool blocks still need tools defined (the API refuses them
  // otherwise): stand-ins under `tool_choice: none`, as callClaude sends (src/claude/request-tools.ts).
  const toolFields = tools.length > 0 ? { tools, ...(toolChoice !== undefined ? { tool_choice: toolChoice } : {}) } : requestTools([], messages);
  const body: MessageCreateParamsBase = {
    model: samplingModel(preferences, input.model),
    max_tokens: cappedMaxTokens(params.maxTokens, input.maxTokensCap),
    ...(system !== undefined ? { system } : {}),
    messages,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(stops.length > 0 ? { stop_sequences: stops } : {}),
    ...(toolFields.tools !== undefined ? { tools: toolFields.tools } : {}),
    ...(toolFields.tool_choice !== undefined ? { tool_choice: toolFields.tool_choice } : {}),
  };
  return { body, names, hadTools: tools.length > 0 };
}

// ---------------------------------------------------------------------------------------------
// Result: Messages API reply → MCP CreateMessageResult
// ---------------------------------------------------------------------------------------------

/** Claude's stop reasons in MCP's spelling; others (`refusal`, `pause_turn`…) go as Claude gave them. */
const STOP_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'endTurn',
  max_tokens: 'maxTokens',
  stop_sequence: 'stopSequence',
  tool_use: 'toolUse',
};

/**
 * The reply's content as MCP sampling content: text and tool_use blocks (tool names back to the
 * server's). A single block when the reply is one text block; when the request had no tools, the
 * text always as one block (MCP's tool-less `CreateMessageResult` takes no array); else an array.
 */
function toSamplingContent(content: readonly ContentBlock[], names: ToolNames, hadTools: boolean): unknown {
  const blocks: Json[] = content.flatMap((block): Json[] => {
    if (block.type === 'text') return [{ type: 'text', text: block.text }];
    if (block.type === 'tool_use') {
      return [{ type: 'tool_use', id: block.id, name: names.toMcp.get(block.name) ?? block.name, input: block.input }];
    }
    return [];
  });
  const only = blocks[0];
  if (blocks.length === 1 && only?.type === 'text') return only;
  // No content at all (a reply cut at once) is still one, empty, text block, which every server reads.
  const allText = blocks.every((block) => block.type === 'text');
  if (allText && (!hadTools || blocks.length === 0)) return { type: 'text', text: blocks.map((block) => block.text as string).join('') };
  return blocks;
}

/** The `sampleMessage` activity, built from the worker's Claude client. */
export function createSampleMessage(deps: { claude: Anthropic }): (input: SamplingInput) => Promise<SamplingOutput> {
  return (input) =>
    withHeartbeats(classified(async () => {
      const { body, names, hadTools } = samplingRequest(input);
      // Streamed like callClaude, with the same time limits (src/errors/claude-time-limits.ts).
      const context = Context.current();
      const reply = await streamMessage(deps.claude, body, {
        signal: context.cancellationSignal,
        limits: claudeCallLimits(body.max_tokens),
        onEvent: () => context.heartbeat(),
      });
      const result: Json = {
        role: 'assistant',
        content: toSamplingContent(reply.content, names, hadTools),
        model: reply.model,
        ...(reply.stop_reason !== null ? { stopReason: STOP_REASONS[reply.stop_reason] ?? reply.stop_reason } : {}),
      };
      return { result, usage: toReplyUsage(reply.usage) };
    }));
}
