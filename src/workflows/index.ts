/** The workflows this worker registers. */
export { conversationWorkflow } from './conversation-workflow';
export type { ConversationInput } from './conversation-workflow';
