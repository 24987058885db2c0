import { redactFailure } from '../errors/redact-failure';

/**
 * The activity, with whatever it throws redacted of the worker's `secrets` and of secret-looking
 * text (`src/errors/redact-secrets.ts`). Failure text leaves the worker here: into the history and
 * the Web UI, and through the workflow into the host's `is_error` results for Claude; the workflow
 * itself cannot know the secrets, so it is done before.
 */
export function withRedactedFailures<I, O>(activity: (input: I) => Promise<O>, secrets: readonly string[]): (input: I) => Promise<O> {
  return async (input) => {
    try {
      return await activity(input);
    } catch (err) {
      throw redactFailure(err, secrets);
    }
  };
}
