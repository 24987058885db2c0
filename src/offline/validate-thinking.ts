/**
 * The real Messages API's checks on extended thinking, for the fake (src/offline, src/testing): the
 * `thinking` and `output_config` fields, the sampling settings thinking excludes, the thinking
 * blocks passed back (signed, unchanged), and where they must be. Messages as the real API words
 * them (its 400 `invalid_request_error` texts), path first.
 */
import { signatureFits } from './thinking-signature';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const THINKING_TYPES = ['enabled', 'disabled', 'adaptive', 'between_tools'];
const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'];
const MIN_BUDGET = 1024;
const DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';
const CONSIDERATIONS = `${DOCS}#important-considerations-when-using-extended-thinking`;

/** Whether the request has Claude think: `enabled` (a budget) or `adaptive`. */
function thinkingOn(body: Json): boolean {
  return isRecord(body.thinking) && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');
}

/**
 * The `thinking` and `output_config` fields, and what thinking excludes: a `temperature` other than
 * 1, `top_k`, and (with a budget) a `tool_choice` that forces a tool. Null when they are fine.
 */
export function validateThinkingSettings(body: Json): string | null {
  const { thinking } = body;
  if (thinking !== undefined) {
    if (!isRecord(thinking)) return 'thinking: Input should be a valid dictionary';
    if (typeof thinking.type !== 'string' || !THINKING_TYPES.includes(thinking.type)) {
      return `thinking: Input tag '${String(thinking.type)}' found using 'type' does not match any of the expected tags: ${THINKING_TYPES.map((t) => `'${t}'`).join(', ')}`;
    }
    if (thinking.type === 'enabled') {
      const budget = thinking.budget_tokens;
      if (budget === undefined) return 'thinking.enabled.budget_tokens: Field required';
      if (typeof budget !== 'number' || !Number.isInteger(budget)) return 'thinking.enabled.budget_tokens: Input should be a valid integer';
      if (budget < MIN_BUDGET) return `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_BUDGET}`;
      if (typeof body.max_tokens === 'number' && body.max_tokens <= budget) {
        return `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${DOCS}#max-tokens-and-context-window-size`;
      }
    }
  }
  const output = body.output_config;
  if (output !== undefined && output !== null) {
    if (!isRecord(output)) return 'output_config: Input should be a valid dictionary';
    const { effort } = output;
    if (effort !== undefined && effort !== null && (typeof effort !== 'string' || !EFFORTS.includes(effort))) {
      return `output_config.effort: Input should be ${EFFORTS.slice(0, -1).map((e) => `'${e}'`).join(', ')} or '${EFFORTS[EFFORTS.length - 1]}'`;
    }
  }
  if (!thinkingOn(body)) return null;
  if (body.temperature !== undefined && body.temperature !== 1) {
    return `\`temperature\` may only be set to 1 when thinking is enabled. Please consult our documentation at ${CONSIDERATIONS}`;
  }
  if (body.top_k !== undefined) return `\`top_k\` must be unset when thinking is enabled. Please consult our documentation at ${CONSIDERATIONS}`;
  const choice = body.tool_choice;
  // Adaptive thinking takes a forced tool (it then skips thinking); a budget does not.
  if (isRecord(thinking) && thinking.type === 'enabled' && isRecord(choice) && (choice.type === 'any' || choice.type === 'tool')) {
    return 'Thinking may not be enabled when tool_choice forces tool use.';
  }
  return null;
}

function blocksOf(message: Json | undefined): unknown[] {
  return message !== undefined && Array.isArray(message.content) ? (message.content as unknown[]) : [];
}

function isThinkingBlock(block: unknown): boolean {
  return isRecord(block) && (block.type === 'thinking' || block.type === 'redacted_thinking');
}

/** A thinking or redacted thinking block where it stands: complete, signed, unchanged. */
function blockProblem(block: Json, role: unknown, path: string): string | null {
  if (role !== 'assistant') return `${path}: \`${String(block.type)}\` blocks can only be in \`assistant\` messages`;
  if (block.type === 'redacted_thinking') return typeof block.data === 'string' ? null : `${path}.data: Field required`;
  if (typeof block.thinking !== 'string') return `${path}.thinking: Field required`;
  if (typeof block.signature !== 'string') return `${path}.signature: Field required`;
  return signatureFits(block.thinking, block.signature) ? null : `${path}: Invalid \`signature\` in \`thinking\` block`;
}

/**
 * Index of the assistant message that opens the final assistant turn when the request continues a
 * tool loop (its last message answers a `tool_use` with `tool_result`s): the API reads the chain
 * assistant → results → assistant → … as one turn. -1 when the request does not continue one.
 */
function openToolLoopStart(messages: Json[]): number {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user' || !blocksOf(last).some((b) => isRecord(b) && b.type === 'tool_result')) return -1;
  let start = messages.length - 2;
  if (messages[start]?.role !== 'assistant') return -1;
  const onlyResults = (m: Json | undefined): boolean =>
    m?.role === 'user' && blocksOf(m).length > 0 && blocksOf(m).every((b) => isRecord(b) && b.type === 'tool_result');
  while (start >= 2 && onlyResults(messages[start - 1]) && messages[start - 2]?.role === 'assistant') start -= 2;
  return start;
}

/**
 * The thinking blocks of `messages` (already checked for shape and pairing) and where they must be:
 * - each one signed and unchanged (the fake checks its own signatures);
 * - with a budget (`thinking: {type: "enabled"}`), the turn a tool loop continues starts with its
 *   thinking: the real API's 400 when a host dropped it;
 * - without thinking, a final (prefilled) assistant message holds none.
 */
export function validateThinkingBlocks(body: Json, messages: Json[]): string | null {
  for (const [i, message] of messages.entries()) {
    for (const [j, block] of blocksOf(message).entries()) {
      if (!isThinkingBlock(block)) continue;
      const problem = blockProblem(block as Json, message.role, `messages.${i}.content.${j}`);
      if (problem) return problem;
    }
  }
  const enabled = isRecord(body.thinking) && body.thinking.type === 'enabled';
  if (enabled) {
    const start = openToolLoopStart(messages);
    const opening = start >= 0 ? messages[start] : undefined;
    if (opening !== undefined) {
      // A compaction block may come first: the summary, then the turn's own blocks.
      const first = typeof opening.content === 'string' ? { type: 'text' } : blocksOf(opening).find((block) => !isRecord(block) || block.type !== 'compaction');
      if (!isThinkingBlock(first)) {
        const found = isRecord(first) ? String(first.type) : 'text';
        return (
          `messages.${start}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. ` +
          'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). ' +
          'We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. ' +
          `Please consult our documentation at ${DOCS}`
        );
      }
    }
  }
  const last = messages[messages.length - 1];
  if (!thinkingOn(body) && last?.role === 'assistant') {
    const j = blocksOf(last).findIndex(isThinkingBlock);
    if (j >= 0) {
      return `messages.${messages.length - 1}.content.${j}: When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`. To use thinking blocks, enable \`thinking\` in your request.`;
    }
  }
  return null;
}
