/**
 * The live-text section's clients in a process of their own (bench/perf/live-follower.ts,
 * `startLiveClients`), started as the host's worker is (host-worker.cjs: tsx in this thread, no
 * source maps). The benchmark sends `{ turn }` for each measured turn and gets `{ result }` or
 * `{ error }` back; `{ close: true }` ends it.
 */
require('tsx/cjs/api').register();
process.setSourceMapsEnabled(false);
const { serveLiveClients } = require('./live-follower.ts');

serveLiveClients().catch((error) => {
  process.send({ error: String((error && error.stack) || error) });
  process.exit(1);
});
