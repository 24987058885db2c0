/**
 * The static summary and details a conversation starts with, shown at the top of its page in the
 * Web UI and in `temporal workflow describe`: the first message (cut), the model and the loop's
 * settings. No secret goes in (the options carry none) and no long text: the system prompt is
 * only counted.
 */
import type { ConversationOptions } from '../conversation/types';
import { formatContextStrategy } from '../context/strategy-spec';
import { formatThinking } from '../conversation/thinking';
import { formatServerTools } from '../claude/server-tools';
import { clip } from '../workflows/progress-text';

/** Characters of the first message in the one-line summary. */
export const SUMMARY_CHARS = 100;
/** Characters of the first message in the details. */
export const DETAILS_MESSAGE_CHARS = 500;

/** `staticSummary` and `staticDetails` for a conversation's start. */
export function startMetadata(message: string, options: ConversationOptions): { staticSummary: string; staticDetails: string } {
  const settings = [
    `model: ${options.model}`,
    `max tokens: ${options.maxTokens}`,
    `model calls per turn: at most ${options.maxIterations}`,
    `context: ${options.context ? formatContextStrategy(options.context) : 'keep_all'}`,
    `prompt cache: ${options.promptCache?.enabled === false ? 'off' : 'on'}`,
    // Only when set: the details of a conversation without thinking stay as they were.
    ...(options.thinking !== undefined ? [`thinking: ${formatThinking(options.thinking)}`] : []),
    ...(options.serverTools !== undefined && options.serverTools.length > 0 ? [`server tools: ${formatServerTools(options.serverTools)}`] : []),
    ...(options.system !== undefined ? [`system prompt: ${Array.from(options.system).length} characters`] : []),
  ];
  return {
    staticSummary: clip(message, SUMMARY_CHARS),
    staticDetails: [`**first message:** ${clip(message, DETAILS_MESSAGE_CHARS)}`, '', settings.join(' · ')].join('\n'),
  };
}
