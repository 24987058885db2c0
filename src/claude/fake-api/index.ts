/** The fake of Claude's Messages API: the public surface tests and the offline start use. */
export { startFakeMessagesApi, type FakeMessagesApi, type FakeMessagesApiOptions } from './server';
export type { RecordedRequest } from './recorded-request';
export type {
  ScriptStep,
  ScriptMessageStep,
  ScriptErrorStep,
  ScriptRespondStep,
  ScriptContentBlock,
  ScriptTextBlock,
  ScriptToolUseBlock,
} from './script';
export { validateMessagesRequest } from './validate-request';
export { respondByRules, OFFLINE_PREFIX } from './rules-responder';
export { buildMessageBody, type FakeMessageBody, type FakeUsage } from './message-body';
export { buildErrorBody, defaultErrorType, type FakeErrorBody } from './error-body';
