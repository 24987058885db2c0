/**
 * Test doubles for hosts built on this package (the `durable-mcp-host/testing` export, like
 * `@temporalio/ai-sdk`'s testing module): a scripted, recording fake of Claude's Messages API.
 * Product code never imports this module.
 */
export { startFakeMessagesApi, type FakeMessagesApi, type FakeMessagesApiOptions } from './fake-messages-api';
export type { RecordedRequest } from './recorded-request';
export type { StreamShape as ScriptStreamShape } from '../offline';
/** Signs a scripted thinking block as the fake signs its own: a block passed back edited is then refused, as the real API does. */
export { signThinking } from '../offline';
/** Signs a scripted compaction block's summary as the fake signs its own: an edited summary sent back is refused (`compaction_content_mismatch`). */
export { signCompaction } from '../offline';
export type {
  ScriptStep,
  ScriptMessageStep,
  ScriptErrorStep,
  ScriptDropStep,
  ScriptRawStep,
  ScriptRespondStep,
  ScriptContentBlock,
  ScriptTextBlock,
  ScriptToolUseBlock,
  ScriptServerToolUseBlock,
} from './script-step';
