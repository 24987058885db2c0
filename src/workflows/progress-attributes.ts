/**
 * The custom search attributes a conversation keeps current, so the Web UI's workflow list and
 * `mcp-host list` can filter conversations (`McpHostState = "running"`, `McpHostTokens > 10000`).
 * A namespace must have them registered: the project's own dev server does it at start
 * (src/temporal/dev-server.ts); on a cluster, `temporal operator search-attribute create`
 * (docs/cluster.md). A conversation started where they are missing simply goes without.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { SearchAttributeKey } from '@temporalio/common/lib/search-attributes';

/** `idle`, `running` or `ended` (a turn waiting for a tool approval is `running`, with {@link WAITING_APPROVAL_ATTRIBUTE} true). */
export const STATE_ATTRIBUTE = defineSearchAttributeKey('McpHostState', SearchAttributeType.KEYWORD);
/** Turns completed. */
export const TURNS_ATTRIBUTE = defineSearchAttributeKey('McpHostTurns', SearchAttributeType.INT);
/** Tool calls made. */
export const TOOL_CALLS_ATTRIBUTE = defineSearchAttributeKey('McpHostToolCalls', SearchAttributeType.INT);
/** Tokens used: input, output, cache writes and reads together. */
export const TOKENS_ATTRIBUTE = defineSearchAttributeKey('McpHostTokens', SearchAttributeType.INT);
/** A tool call of the running turn waits for the user's approval (src/workflows/tool-approval.ts upserts it when that flips). */
export const WAITING_APPROVAL_ATTRIBUTE = defineSearchAttributeKey('McpHostWaitingApproval', SearchAttributeType.BOOL);

/**
 * A tool call of the running turn waits for the user's answer to a server's request (a form, a URL,
 * leave to sample; src/workflows/server-input.ts upserts it when that flips). Optional: registered by
 * the project's dev server and docs/cluster.md, but a namespace without it keeps the others.
 */
export const WAITING_INPUT_ATTRIBUTE = defineSearchAttributeKey('McpHostWaitingInput', SearchAttributeType.BOOL);

/** Every attribute, in the order they are registered and documented. */
export const PROGRESS_ATTRIBUTES: readonly SearchAttributeKey<SearchAttributeType>[] = [
  STATE_ATTRIBUTE,
  TURNS_ATTRIBUTE,
  TOOL_CALLS_ATTRIBUTE,
  TOKENS_ATTRIBUTE,
  WAITING_APPROVAL_ATTRIBUTE,
];

const CLI_TYPE_NAMES: Record<SearchAttributeType, string> = {
  [SearchAttributeType.TEXT]: 'Text',
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.INT]: 'Int',
  [SearchAttributeType.DOUBLE]: 'Double',
  [SearchAttributeType.BOOL]: 'Bool',
  [SearchAttributeType.DATETIME]: 'Datetime',
  [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
};

/** `Name=Type` as `temporal server start-dev --search-attribute` takes it. */
export function cliSearchAttribute(key: SearchAttributeKey<SearchAttributeType>): string {
  return `${key.name}=${CLI_TYPE_NAMES[key.type]}`;
}
