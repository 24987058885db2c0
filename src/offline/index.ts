/**
 * The offline stand-in for Claude's Messages API (product code: `npm start` runs it without an API
 * key), and the wire-level server it is built on, which the test fakes (`src/testing`) reuse.
 */
export { startOfflineStandIn, type OfflineStandInOptions } from './start-offline-stand-in';
export { startMessagesApiServer, type MessagesApiServer, type MessagesApiServerOptions } from './messages-api-server';
export type {
  AnswerContentBlock,
  AnswerServerToolUseBlock,
  AnswerTextBlock,
  AnswerToolUseBlock,
  DropAnswer,
  ErrorAnswer,
  MessageAnswer,
  MessagesApiAnswer,
  MessagesApiResponder,
  RawAnswer,
  StreamShape,
} from './messages-api-answer';
export type { ReceivedRequest } from './received-request';
export { respondByRules, OFFLINE_PREFIX } from './rules-responder';
export { validateMessagesRequest } from './validate-request';
export { signThinking } from './thinking-signature';
export { contextManagementProblem, signCompaction, withContextManagement, type ContextProblem } from './context-editing-emulation';
export { bm25Search, searchResult, withToolSearchResults, type SearchableTool } from './tool-search-emulation';
