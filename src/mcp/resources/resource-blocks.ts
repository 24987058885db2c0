/**
 * A resource's contents (`resources/read`) in Claude's form, by the same conversion and cap as a tool
 * result (src/mcp/tool-result.ts): text with a `[resource uri (type)]` header, images (JPEG, PNG, GIF,
 * WebP) as image blocks, PDFs as document blocks, anything else as a note saying what was left out.
 * Pure.
 */
import type { DocumentBlockParam, ImageBlockParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { toToolResultContent } from '../tool-result';

/** Claude's blocks for a resource, and how much the cap cut. */
export interface ResourceBlocks {
  blocks: Array<TextBlockParam | ImageBlockParam | DocumentBlockParam>;
  /** Characters (text and base64) left out because of the cap; 0 when nothing was cut. */
  truncatedChars: number;
}

/** `contents` of a `resources/read` result as Claude's blocks, cut at `maxChars` like a tool result. */
export function resourceBlocks(contents: readonly unknown[], maxChars?: number): ResourceBlocks {
  const converted = toToolResultContent(
    { content: contents.map((resource) => ({ type: 'resource', resource })) },
    maxChars !== undefined ? { maxChars } : {},
  );
  const blocks = typeof converted.content === 'string' ? [{ type: 'text' as const, text: converted.content }] : converted.content;
  return { blocks, truncatedChars: converted.truncatedChars };
}
