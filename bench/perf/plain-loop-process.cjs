/**
 * The plain loop in a process of its own (bench/perf/plain-loop.ts, `startPlainLoopProcess`),
 * started as the host's worker is (host-worker.cjs: tsx in this thread, no source maps), streaming
 * each answer as the host's `callClaude` does. The benchmark sends `{ tag }` for each turn and gets
 * `{ ms }` or `{ error }` back; `{ close: true }` ends it.
 */
require('tsx/cjs/api').register();
process.setSourceMapsEnabled(false);
const { createPlainTurns } = require('./plain-loop.ts');

const turns = createPlainTurns(process.env.BENCH_CLAUDE_URL, Number(process.env.BENCH_TOOL_MS || 0), 'stream');
process.on('message', (message) => {
  if (message.close) {
    turns.close().finally(() => process.exit(0));
    return;
  }
  turns.turn(message.tag).then(
    (ms) => process.send({ ms }),
    (error) => process.send({ error: String((error && error.stack) || error) }),
  );
});
process.send({ ready: true });
