/**
 * The Messages API's refusal of a prompt over the model's context window: a 400
 * `invalid_request_error` whose message says "prompt is too long" (e.g. `prompt is too long:
 * 212345 tokens > 200000 maximum`). The workflow escalates the context strategy on it instead of
 * failing every later turn the same way. Pure.
 */

/** Whether a failure (its type as the classifier made it, and its message) is that refusal. */
export function isPromptTooLong(failureType: string | undefined, message: string): boolean {
  return failureType === 'claude.invalid_request_error' && /prompt is too long/i.test(message);
}

/**
 * A rough token count of content about to join the prompt (tool results added since the last
 * reply's usage was read): about 4 characters of its JSON per token. It errs high for images.
 */
export function estimateTokens(content: unknown): number {
  return Math.ceil(JSON.stringify(content).length / 4);
}
