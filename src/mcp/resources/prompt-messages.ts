/**
 * An MCP prompt's messages (`prompts/get`) in Claude's form, as they are: each message keeps its
 * role, and its content block becomes the Claude block that carries it (text, an image, an embedded
 * resource by the tool-result conversion, a resource link as its line). Pure.
 */
import type { ContentBlockParam, MessageParam } from '../../conversation/types';
import { toToolResultContent } from '../tool-result';

/** One prompt message as the server sent it (checked loosely: servers send all sorts). */
interface PromptMessageIn {
  role?: unknown;
  content?: unknown;
}

/** The prompt's messages as Claude's; throws for a message whose role is neither `user` nor `assistant`. */
export function promptMessages(messages: readonly unknown[]): MessageParam[] {
  return messages.map((raw, index): MessageParam => {
    const message = (typeof raw === 'object' && raw !== null ? raw : {}) as PromptMessageIn;
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw new Error(`message ${index + 1} of the prompt has the role ${JSON.stringify(message.role)}; only "user" and "assistant" can go to Claude`);
    }
    const converted = toToolResultContent({ content: [message.content] });
    if (typeof converted.content === 'string') return { role: message.role, content: converted.content };
    // An assistant message takes no image or document: its text only.
    const blocks: ContentBlockParam[] = message.role === 'user' ? converted.content : converted.content.filter((block) => block.type === 'text');
    return { role: message.role, content: blocks.length > 0 ? blocks : '(no content)' };
  });
}
