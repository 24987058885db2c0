/**
 * Starts bench/perf/host-worker.ts as production runs the host (`node dist/worker/main.js`): tsx
 * compiles the TypeScript of this thread only, and Node's source-map support stays off. Run as
 * `node --import tsx host-worker.ts`, tsx would load in every worker thread too (they inherit
 * execArgv) and turn source maps on there, so each function the workflow thread compiles (the
 * SDK's promise hook compiles one per promise) and each stack trace would go through Node's
 * source-map cache: CPU the compiled host never spends.
 */
require('tsx/cjs/api').register();
process.setSourceMapsEnabled(false);
require('./host-worker.ts');
