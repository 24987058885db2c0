/**
 * `npm run setup` (and `npm test`'s pretest): makes sure a Temporal CLI exists, building it once
 * with Go when none is found. Prints where it is.
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
