import { READ_RESOURCE_TOOL } from './resources/host-resource-tools';
import type {
  DocumentBlockParam,
  ImageBlockParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages';

/**
 * The parts of an MCP `tools/call` result this module reads. The SDK's `CallToolResult`
 * fits; fields are typed loosely because servers send all sorts, and nothing a server
 * sends should make the conversion throw.
 */
export interface McpToolCallResult {
  content?: readonly unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  /** The pre-2025 result shape (protocol 2024-10-07), used when `content` is absent. */
  toolResult?: unknown;
}

/** Options for {@link toToolResultContent}. */
export interface ToolResultOptions {
  /**
   * Most characters of text plus base64 data to pass on. Default 100,000, about 25,000
   * tokens: one tool result should not fill Claude's context or a Temporal payload.
   */
  maxChars?: number;
  /**
   * The server whose result this is, when it has resources and Claude so has the host's read tool
   * (src/mcp/resources/host-resource-tools.ts): each resource link then says how to read it.
   */
  resourceLinkServer?: string;
}

/** A tool result ready to be put into Claude's `tool_result` block. */
export interface ConvertedToolResult {
  /** The `tool_result` block's `content`. */
  content: string | Array<TextBlockParam | ImageBlockParam | DocumentBlockParam>;
  /** The `tool_result` block's `is_error`. */
  isError: boolean;
  /** Characters (text and base64) left out because of `maxChars`; 0 when nothing was cut. */
  truncatedChars: number;
}

/** The default cap on a tool result's text and base64, in characters (about 25,000 tokens); attachments and resource reads share it. */
export const MAX_TOOL_RESULT_CHARS = 100_000;
const NO_CONTENT = '(no content)';
const CLAUDE_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ClaudeImageType = (typeof CLAUDE_IMAGE_TYPES)[number];

/** A converted block before the size cap is applied; binary ones carry their fallback note. */
type Piece =
  | { kind: 'text'; text: string }
  | { kind: 'binary'; block: ImageBlockParam | DocumentBlockParam; size: number; what: string };

/**
 * Converts an MCP `tools/call` result into the content of Claude's `tool_result` block.
 *
 * - One text block becomes a plain string; anything else becomes an array of blocks.
 * - Images (JPEG, PNG, GIF, WebP) and PDF resources become image and document blocks.
 *   Everything Claude cannot take (audio, other image types, other binary resources,
 *   unknown block types) becomes a text note, so nothing disappears silently.
 * - Embedded text resources become text with a `[resource <uri> (<mimeType>)]` header;
 *   resource links become one descriptive line.
 * - `structuredContent` is sent as JSON when there is no text content to carry it.
 * - An empty result becomes `"(no content)"`, since Claude rejects empty content in some
 *   cases (empty text blocks, and empty content together with `is_error`). For the same
 *   reason whitespace-only text blocks are dropped.
 * - Text and base64 data beyond `maxChars` are cut, with a marker saying how much was cut;
 *   an image or PDF that does not fit is replaced by a note.
 *
 * Pure; never throws for any server output. Throws RangeError for a bad `maxChars`.
 */
export function toToolResultContent(
  result: McpToolCallResult,
  options: ToolResultOptions = {},
): ConvertedToolResult {
  const maxChars = options.maxChars ?? MAX_TOOL_RESULT_CHARS;
  if (Number.isNaN(maxChars) || maxChars < 0) {
    throw new RangeError(`maxChars must be a number of characters >= 0, not ${maxChars}`);
  }

  const pieces = collectPieces(result, options.resourceLinkServer);
  const { blocks, truncatedChars } = applyCap(pieces, maxChars);
  const isError = result.isError === true;

  if (blocks.length === 0) return { content: NO_CONTENT, isError, truncatedChars };
  const only = blocks[0];
  if (blocks.length === 1 && only !== undefined && only.type === 'text') {
    return { content: only.text, isError, truncatedChars };
  }
  return { content: blocks, isError, truncatedChars };
}

function collectPieces(result: McpToolCallResult, linkServer: string | undefined): Piece[] {
  const pieces: Piece[] = [];
  const content: unknown = result.content;
  // Array.isArray would narrow to any[]; the blocks are untrusted, so keep them unknown.
  const blocksIn: readonly unknown[] | undefined = Array.isArray(content) ? (content as unknown[]) : undefined;
  if (blocksIn !== undefined) {
    for (const block of blocksIn) pieces.push(convertBlock(block, linkServer));
  } else if (content !== undefined) {
    pieces.push({ kind: 'text', text: `[malformed MCP tool result content] ${toJson(content)}` });
  } else if (result.toolResult !== undefined) {
    const legacy = result.toolResult;
    pieces.push({ kind: 'text', text: typeof legacy === 'string' ? legacy : toJson(legacy) });
  }

  const hasText = blocksIn !== undefined && blocksIn.some((b) => isRecord(b) && b.type === 'text' && isUsableText(b.text));
  if (!hasText && result.structuredContent !== undefined) {
    pieces.push({ kind: 'text', text: toJson(result.structuredContent) });
  }
  // Claude rejects text blocks that are empty or only whitespace.
  return pieces.filter((p) => p.kind !== 'text' || isUsableText(p.text));
}

function convertBlock(block: unknown, linkServer: string | undefined): Piece {
  if (!isRecord(block)) return unknownBlock(block);
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? { kind: 'text', text: block.text } : unknownBlock(block);
    case 'image':
      return convertImage(block);
    case 'audio':
      return convertAudio(block);
    case 'resource':
      return convertResource(block);
    case 'resource_link':
      return convertResourceLink(block, linkServer);
    default:
      return unknownBlock(block);
  }
}

function convertImage(block: Record<string, unknown>): Piece {
  const { data, mimeType } = block;
  if (typeof data !== 'string' || typeof mimeType !== 'string') return unknownBlock(block);
  const mediaType = claudeImageType(mimeType);
  if (mediaType === undefined) {
    return {
      kind: 'text',
      text: `[image of type ${mimeType} returned by the tool, omitted: Claude accepts only ${CLAUDE_IMAGE_TYPES.join(', ')}]`,
    };
  }
  return {
    kind: 'binary',
    block: { type: 'image', source: { type: 'base64', media_type: mediaType, data } },
    size: data.length,
    what: `image ${mediaType}, ${base64Bytes(data)} bytes`,
  };
}

function convertAudio(block: Record<string, unknown>): Piece {
  const { data, mimeType } = block;
  if (typeof data !== 'string' || typeof mimeType !== 'string') return unknownBlock(block);
  return { kind: 'text', text: `[audio ${mimeType}, ${base64Bytes(data)} bytes, omitted: Claude does not accept audio]` };
}

function convertResource(block: Record<string, unknown>): Piece {
  const resource = block.resource;
  if (!isRecord(resource) || typeof resource.uri !== 'string') return unknownBlock(block);
  const uri = resource.uri;
  const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : undefined;
  const header = `[resource ${uri}${mimeType === undefined ? '' : ` (${mimeType})`}]`;

  if (typeof resource.text === 'string') return { kind: 'text', text: `${header}\n${resource.text}` };
  if (typeof resource.blob !== 'string') return unknownBlock(block);

  const data = resource.blob;
  const essence = mimeType === undefined ? undefined : mimeEssence(mimeType);
  if (essence === 'application/pdf') {
    return {
      kind: 'binary',
      block: { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } },
      size: data.length,
      what: `PDF resource ${uri}, ${base64Bytes(data)} bytes`,
    };
  }
  const imageType = mimeType === undefined ? undefined : claudeImageType(mimeType);
  if (imageType !== undefined) {
    return {
      kind: 'binary',
      block: { type: 'image', source: { type: 'base64', media_type: imageType, data } },
      size: data.length,
      what: `image resource ${uri} (${imageType}), ${base64Bytes(data)} bytes`,
    };
  }
  if (mimeType !== undefined && isTextual(mimeType)) {
    const text = decodeBase64Text(data, mimeType);
    if (text !== undefined) return { kind: 'text', text: `${header}\n${text}` };
  }
  return {
    kind: 'text',
    text: `[resource ${uri} (${mimeType ?? 'unknown type'}), ${base64Bytes(data)} bytes, omitted: Claude does not accept this type]`,
  };
}

function convertResourceLink(block: Record<string, unknown>, linkServer: string | undefined): Piece {
  const { name, uri, mimeType, description } = block;
  if (typeof uri !== 'string') return unknownBlock(block);
  let text = `[resource link] ${typeof name === 'string' ? name : uri}: ${uri}`;
  if (typeof mimeType === 'string') text += ` (${mimeType})`;
  if (typeof description === 'string' && description.trim() !== '') text += ` — ${description}`;
  if (linkServer !== undefined) text += ` (read it with ${READ_RESOURCE_TOOL}, server ${JSON.stringify(linkServer)})`;
  return { kind: 'text', text };
}

function unknownBlock(block: unknown): Piece {
  const type = isRecord(block) && typeof block.type === 'string' ? ` of type ${JSON.stringify(block.type)}` : '';
  return { kind: 'text', text: `[MCP content block${type} that the host cannot convert] ${toJson(block)}` };
}

/** Keeps pieces in order until `maxChars` is used up; reports how much was left out. */
function applyCap(
  pieces: readonly Piece[],
  maxChars: number,
): { blocks: Array<TextBlockParam | ImageBlockParam | DocumentBlockParam>; truncatedChars: number } {
  const total = pieces.reduce((sum, p) => sum + (p.kind === 'text' ? p.text.length : p.size), 0);
  const blocks: Array<TextBlockParam | ImageBlockParam | DocumentBlockParam> = [];
  let remaining = maxChars;
  let cut = 0;
  // The text block where text was first cut; the marker goes there so it reads in place.
  let cutBlock: TextBlockParam | undefined;

  for (const piece of pieces) {
    if (piece.kind === 'binary') {
      if (piece.size <= remaining) {
        blocks.push(piece.block);
        remaining -= piece.size;
      } else {
        cut += piece.size;
        blocks.push({
          type: 'text',
          text: `[${piece.what}, omitted: it would exceed the host's cap of ${maxChars} characters per tool result]`,
        });
      }
      continue;
    }
    if (piece.text.length <= remaining) {
      blocks.push({ type: 'text', text: piece.text });
      remaining -= piece.text.length;
      continue;
    }
    const kept = cutText(piece.text, remaining);
    cut += piece.text.length - kept.length;
    remaining = 0;
    if (cutBlock === undefined) {
      cutBlock = { type: 'text', text: kept };
      blocks.push(cutBlock);
    }
  }

  if (cutBlock !== undefined) {
    const marker = `[... cut ${cut} of ${total} characters: the tool result exceeded the host's cap of ${maxChars} characters]`;
    cutBlock.text = cutBlock.text === '' ? marker : `${cutBlock.text}\n${marker}`;
  }
  return { blocks, truncatedChars: cut };
}

/** The first `length` UTF-16 units, without splitting a surrogate pair. */
function cutText(text: string, length: number): string {
  let end = Math.max(0, Math.floor(length));
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

function claudeImageType(mimeType: string): ClaudeImageType | undefined {
  const essence = mimeEssence(mimeType);
  // image/jpg is not registered but servers send it.
  const normalised = essence === 'image/jpg' ? 'image/jpeg' : essence;
  return CLAUDE_IMAGE_TYPES.find((t) => t === normalised);
}

/** `text/*` and the common structured text types. */
function isTextual(mimeType: string): boolean {
  const essence = mimeEssence(mimeType);
  return (
    essence.startsWith('text/') ||
    essence === 'application/json' ||
    essence === 'application/xml' ||
    essence.endsWith('+json') ||
    essence.endsWith('+xml')
  );
}

function mimeEssence(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/** Decodes base64 text in the declared charset (UTF-8 by default); undefined if it is not base64. */
function decodeBase64Text(data: string, mimeType: string): string | undefined {
  let binary: string;
  try {
    binary = atob(data);
  } catch {
    return undefined;
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(mimeType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    // Unknown charset label: UTF-8 is the best guess.
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Size of the decoded data, computed from the base64 text without decoding it. */
function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function isUsableText(text: unknown): boolean {
  return typeof text === 'string' && text.trim() !== '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
