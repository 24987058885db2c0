/**
 * What a user turn carries beside its text (issue 28): resources attached to it (`--attach`,
 * `@server:uri`), and an MCP prompt run as the turn (`--prompt`). The client reads both from the
 * servers before sending, so a bad reference is refused before anything reaches the conversation,
 * and the workflow only places the blocks. Pure: the workflow imports it.
 */
import type { ContentBlockParam, MessageParam } from './types';
import { MAX_USER_MESSAGE_BYTES } from './user-message-problem';

/** A resource attached to a turn, as read from its server and converted to Claude's blocks. */
export interface TurnAttachment {
  server: string;
  uri: string;
  /** The resource in Claude's form: text (with a `[resource uri]` header), image or document blocks. */
  blocks: ContentBlockParam[];
}

/** A prompt run as a turn: its messages, in Claude's form, go into the conversation as they are. */
export interface TurnPrompt {
  server: string;
  name: string;
  messages: MessageParam[];
}

/** The turn's content beside its text. */
export interface TurnContent {
  attachments?: TurnAttachment[];
  prompt?: TurnPrompt;
}

/** Whether `content` adds anything to a turn. */
export function hasTurnContent(content: TurnContent | undefined): content is TurnContent {
  return content !== undefined && ((content.attachments?.length ?? 0) > 0 || content.prompt !== undefined);
}

/** The size of `value` as JSON, in UTF-16 units: near enough to bytes for the ASCII of base64 and JSON. */
function jsonSize(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

/**
 * Why `content` cannot go with a turn, in one line; undefined when it can. `text` may be empty
 * only when a prompt makes the turn.
 */
export function turnContentProblem(text: unknown, content: TurnContent | undefined): string | undefined {
  if (typeof text !== 'string') return 'the message is empty';
  if (!hasTurnContent(content)) return text.trim() === '' ? 'the message is empty' : undefined;
  if (content.prompt !== undefined && content.prompt.messages.length === 0) {
    return `prompt "${content.prompt.name}" of MCP server "${content.prompt.server}" has no messages`;
  }
  if (content.prompt === undefined && text.trim() === '') return 'the message is empty: say what to do with the attached resources';
  for (const attachment of content.attachments ?? []) {
    if (attachment.blocks.length === 0) return `the attached resource ${attachment.uri} of MCP server "${attachment.server}" has no content`;
  }
  const bytes = jsonSize(content) + text.length;
  if (bytes > MAX_USER_MESSAGE_BYTES) {
    return `the turn's attachments and prompt come to ${(bytes / (1024 * 1024)).toFixed(1)} MiB; a turn takes at most 1 MiB: attach fewer or smaller resources`;
  }
  return undefined;
}

/** Messages with `message` added; a message of the same role as the last one joins it (roles alternate). */
function joined(messages: readonly MessageParam[], message: MessageParam): MessageParam[] {
  const last = messages[messages.length - 1];
  if (last?.role !== message.role) return [...messages, message];
  const blocks = (content: MessageParam['content']): ContentBlockParam[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : [...content]);
  return [...messages.slice(0, -1), { role: last.role, content: [...blocks(last.content), ...blocks(message.content)] } as MessageParam];
}

/**
 * The messages after a turn with `content` is added: the prompt's messages as they are, then the
 * text with the attachments' blocks after it as one user message (the text alone when nothing is
 * attached and it is not empty). Roles keep alternating: a message of the role of the one before
 * joins it, as {@link withUserText} does for plain text.
 */
export function withTurnContent(messages: readonly MessageParam[], text: string, content: TurnContent): MessageParam[] {
  let out = [...messages];
  for (const message of content.prompt?.messages ?? []) out = joined(out, message);
  const attached = (content.attachments ?? []).flatMap((attachment) => attachment.blocks);
  if (text.trim() === '' && attached.length === 0) return out;
  const user: MessageParam = attached.length === 0 ? { role: 'user', content: text } : { role: 'user', content: [...(text.trim() !== '' ? [{ type: 'text' as const, text }] : []), ...attached] };
  return joined(out, user);
}

/** A short line of what the turn carries, for status and the Web UI (`[prompt s/n]`, `[+2 attached]`). */
export function turnContentLabel(content: TurnContent | undefined): string {
  if (!hasTurnContent(content)) return '';
  const parts: string[] = [];
  if (content.prompt !== undefined) parts.push(`[prompt ${content.prompt.server}/${content.prompt.name}]`);
  const attached = content.attachments?.length ?? 0;
  if (attached > 0) parts.push(`[+${attached} attached: ${(content.attachments ?? []).map((a) => `${a.server}:${a.uri}`).join(', ')}]`);
  return parts.join(' ');
}
