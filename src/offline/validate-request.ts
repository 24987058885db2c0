/**
 * The checks the real Messages API makes before it runs the model, so a host bug that the real API
 * would answer with a 400 fails the same way against the fake. Messages are worded after the real
 * API's, with the JSON path first.
 */

import { validateThinkingBlocks, validateThinkingSettings } from './validate-thinking';
import { validateToolSearchBlocks, validateToolSearchTools } from './validate-tool-search';
import { validateContainerField, validateServerToolBlocks, validateServerToolDefinitions } from './validate-server-tools';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const TOOL_CHOICE_TYPES = new Set(['auto', 'any', 'tool', 'none']);

/** A string the API treats as empty: it rejects text that is only whitespace too. */
function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** The ids of the tool_use blocks of one message, in order (none for string content). */
function toolUseIds(message: Json): string[] {
  const { content } = message;
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: unknown) =>
    isRecord(block) && block.type === 'tool_use' && typeof block.id === 'string' ? [block.id] : [],
  );
}

function validateSystem(system: unknown): string | null {
  if (system === undefined || typeof system === 'string') return null;
  if (!Array.isArray(system)) return 'system: Input should be a valid string or a list of text blocks';
  for (const [i, block] of system.entries()) {
    if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') {
      return `system.${i}: Input should be a text block ({"type": "text", "text": "..."})`;
    }
  }
  return null;
}

function validateTools(tools: unknown): { error: string | null; names: Set<string> } {
  const names = new Set<string>();
  if (tools === undefined) return { error: null, names };
  if (!Array.isArray(tools)) return { error: 'tools: Input should be a valid list', names };
  for (const [i, tool] of tools.entries()) {
    if (!isRecord(tool)) return { error: `tools.${i}: Input should be a valid dictionary`, names };
    const name = tool.name;
    const custom = tool.type === undefined || tool.type === null || tool.type === 'custom';
    if (custom) {
      if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
        return { error: `tools.${i}.custom.name: String should match pattern '${TOOL_NAME.source}'`, names };
      }
      const schema = tool.input_schema;
      if (schema === undefined) return { error: `tools.${i}.custom.input_schema: Field required`, names };
      if (!isRecord(schema)) return { error: `tools.${i}.custom.input_schema: Input should be a valid dictionary`, names };
      if (schema.type !== 'object') return { error: `tools.${i}.custom.input_schema.type: Input should be 'object'`, names };
      if (tool.description !== undefined && typeof tool.description !== 'string') {
        return { error: `tools.${i}.custom.description: Input should be a valid string`, names };
      }
    } else if (typeof name !== 'string' || name === '') {
      // Server tools (web search, code execution…) have their own schemas; only the name is shared.
      return { error: `tools.${i}.name: Field required`, names };
    }
    if (names.has(name)) return { error: 'tools: Tool names must be unique.', names };
    names.add(name);
  }
  return { error: null, names };
}

function validateToolChoice(choice: unknown, toolNames: Set<string>): string | null {
  if (choice === undefined) return null;
  if (!isRecord(choice) || typeof choice.type !== 'string' || !TOOL_CHOICE_TYPES.has(choice.type)) {
    return "tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'";
  }
  if (choice.type === 'tool') {
    if (typeof choice.name !== 'string') return 'tool_choice.tool.name: Field required';
    if (!toolNames.has(choice.name)) return `tool_choice.tool.name: Tool '${choice.name}' not found in tools`;
  }
  return null;
}

/** Checks one content block where it stands; pairing with other messages is checked later. */
function validateBlock(block: unknown, role: string, path: string): string | null {
  if (!isRecord(block)) return `${path}: Input should be a valid dictionary`;
  if (typeof block.type !== 'string') return `${path}.type: Field required`;
  switch (block.type) {
    case 'text':
      if (typeof block.text !== 'string') return `${path}.text: Input should be a valid string`;
      if (isBlank(block.text)) return `${path}.text: text content blocks must contain non-whitespace text`;
      return null;
    case 'tool_use':
      if (role !== 'assistant') return `${path}: tool_use blocks can only be in assistant messages`;
      if (typeof block.id !== 'string' || !TOOL_USE_ID.test(block.id)) {
        return `${path}.id: String should match pattern '${TOOL_USE_ID.source}'`;
      }
      if (typeof block.name !== 'string' || block.name === '') return `${path}.name: Field required`;
      if (!isRecord(block.input)) return `${path}.input: Input should be a valid dictionary`;
      return null;
    case 'tool_result': {
      if (role !== 'user') return `${path}: tool_result blocks can only be in user messages`;
      if (typeof block.tool_use_id !== 'string') return `${path}.tool_use_id: Field required`;
      if (block.is_error !== undefined && typeof block.is_error !== 'boolean') {
        return `${path}.is_error: Input should be a valid boolean`;
      }
      const { content } = block;
      if (content === undefined || typeof content === 'string') return null;
      if (!Array.isArray(content)) return `${path}.content: Input should be a valid string or a list of content blocks`;
      for (const [k, inner] of content.entries()) {
        if (!isRecord(inner) || typeof inner.type !== 'string') return `${path}.content.${k}.type: Field required`;
        if (inner.type === 'text' && typeof inner.text !== 'string') {
          return `${path}.content.${k}.text: Input should be a valid string`;
        }
      }
      return null;
    }
    default:
      // Images, documents…: the fake does not model them, so it lets them through. Thinking blocks
      // are checked with the rest of thinking (validate-thinking.ts).
      return null;
  }
}

/** Checks each message on its own: role, content shape, blocks. */
function validateMessageShape(message: unknown, i: number, isLast: boolean): string | null {
  const path = `messages.${i}`;
  if (!isRecord(message)) return `${path}: Input should be a valid dictionary`;
  const { role, content } = message;
  if (role === 'system') {
    return `${path}.role: Input should be 'user' or 'assistant' (a system prompt goes in the top-level \`system\` field, not in messages)`;
  }
  if (role !== 'user' && role !== 'assistant') return `${path}.role: Input should be 'user' or 'assistant'`;
  // A compacted conversation opens on its compaction block, in an assistant message (beta).
  const opensWithCompaction = Array.isArray(content) && isRecord(content[0]) && content[0].type === 'compaction';
  if (i === 0 && role !== 'user' && !opensWithCompaction) return 'messages: first message must use the "user" role';
  // The real API lets only a final assistant message (a prefill) be empty.
  const emptyAllowed = isLast && role === 'assistant';
  const emptyError = `${path}: all messages must have non-empty content except for the optional final assistant message`;
  if (typeof content === 'string') return isBlank(content) && !emptyAllowed ? emptyError : null;
  if (!Array.isArray(content)) return `${path}.content: Input should be a valid string or a list of content blocks`;
  if (content.length === 0) return emptyAllowed ? null : emptyError;
  let seenOther = false;
  for (const [j, block] of content.entries()) {
    const error = validateBlock(block, role, `${path}.content.${j}`);
    if (error) return error;
    const isResult = isRecord(block) && block.type === 'tool_result';
    // The API reads a user turn as "results of the last call, then what the user adds".
    if (isResult && seenOther) {
      return `${path}.content.${j}: tool_result blocks must come first in the user message, before any other content`;
    }
    if (!isResult) seenOther = true;
  }
  return null;
}

/** Checks that tool_use and tool_result blocks pair up across adjacent messages, as the API requires. */
function validatePairing(messages: Json[]): string | null {
  const allIds = new Set<string>();
  for (const [i, message] of messages.entries()) {
    const ids = toolUseIds(message);
    for (const id of ids) {
      if (allIds.has(id)) return `messages.${i}: tool_use ids must be unique; found ${id} more than once`;
      allIds.add(id);
    }
    if (message.role === 'assistant' && ids.length > 0) {
      const next = messages[i + 1];
      const answered = new Set<string>();
      if (next?.role === 'user' && Array.isArray(next.content)) {
        for (const block of next.content as unknown[]) {
          if (isRecord(block) && block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
            answered.add(block.tool_use_id);
          }
        }
      }
      const missing = ids.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return (
          `messages.${i}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}. ` +
          'Each tool_use block must have a corresponding tool_result block in the next message.'
        );
      }
    }
    if (message.role === 'user' && Array.isArray(message.content)) {
      const previous = messages[i - 1];
      const asked = new Set(previous?.role === 'assistant' ? toolUseIds(previous) : []);
      const seen = new Set<string>();
      for (const [j, block] of (message.content as unknown[]).entries()) {
        if (!isRecord(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
        const id = block.tool_use_id;
        if (!asked.has(id)) {
          return (
            `messages.${i}.content.${j}: unexpected tool_use_id found in tool_result blocks: ${id}. ` +
            'Each tool_result block must have a corresponding tool_use block in the previous message.'
          );
        }
        if (seen.has(id)) return `messages.${i}.content.${j}: each tool_use must have a single result; found multiple tool_result blocks with id ${id}`;
        seen.add(id);
      }
    }
  }
  return null;
}

function hasToolBlocks(messages: Json[]): boolean {
  return messages.some(
    (m) =>
      Array.isArray(m.content) &&
      (m.content as unknown[]).some((b) => isRecord(b) && (b.type === 'tool_use' || b.type === 'tool_result')),
  );
}

/**
 * Validates a `POST /v1/messages` body the way the real API does (the subset a tool-using host can
 * get wrong). Returns the error message the fake answers 400 `invalid_request_error` with, or `null`
 * when the request is valid. Pure: no I/O, no state.
 */
export function validateMessagesRequest(body: unknown): string | null {
  if (!isRecord(body)) return 'body: Input should be a JSON object';
  // `stream: true` is answered with server-sent events (src/offline/message-events.ts).
  if (body.stream !== undefined && typeof body.stream !== 'boolean') return 'stream: Input should be a valid boolean';
  const { model, max_tokens: maxTokens, messages } = body;
  if (model === undefined) return 'model: Field required';
  if (typeof model !== 'string' || model === '') return 'model: Input should be a non-empty string';
  if (maxTokens === undefined) return 'max_tokens: Field required';
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens)) return 'max_tokens: Input should be a valid integer';
  if (maxTokens < 1) return 'max_tokens: Input should be greater than or equal to 1';
  if (messages === undefined) return 'messages: Field required';
  if (!Array.isArray(messages)) return 'messages: Input should be a valid list';
  if (messages.length === 0) return 'messages: at least one message is required';

  const systemError = validateSystem(body.system);
  if (systemError) return systemError;
  const { error: toolsError, names } = validateTools(body.tools);
  if (toolsError) return toolsError;
  const searchToolsError = validateToolSearchTools(body.tools);
  if (searchToolsError) return searchToolsError;
  const serverToolsError = validateServerToolDefinitions(body.tools) ?? validateContainerField(body.container);
  if (serverToolsError) return serverToolsError;
  const choiceError = validateToolChoice(body.tool_choice, names);
  if (choiceError) return choiceError;
  const { temperature } = body;
  if (temperature !== undefined && (typeof temperature !== 'number' || temperature < 0 || temperature > 1)) {
    return 'temperature: Input should be a number between 0 and 1';
  }
  const thinkingError = validateThinkingSettings(body);
  if (thinkingError) return thinkingError;
  const stops = body.stop_sequences;
  if (stops !== undefined && (!Array.isArray(stops) || !stops.every((s) => typeof s === 'string'))) {
    return 'stop_sequences: Input should be a valid list of strings';
  }

  for (const [i, message] of messages.entries()) {
    const error = validateMessageShape(message, i, i === messages.length - 1);
    if (error) return error;
  }
  // Every element is a record now: validateMessageShape rejected anything else.
  const records = messages as Json[];
  const pairingError = validatePairing(records);
  if (pairingError) return pairingError;
  const searchBlocksError = validateToolSearchBlocks(records, names);
  if (searchBlocksError) return searchBlocksError;
  const serverBlocksError = validateServerToolBlocks(records, body.tools);
  if (serverBlocksError) return serverBlocksError;
  if (hasToolBlocks(records) && names.size === 0) {
    return 'Requests which include `tool_use` or `tool_result` blocks must define tools.';
  }
  return validateThinkingBlocks(body, records);
}
