#!/usr/bin/env node
// The `mcp-host` CLI: the compiled client (dist/, made by `npm run build`; `npm start` builds it).
'use strict';
const path = require('node:path');

let runCli;
try {
  ({ runCli } = require(path.join(__dirname, '..', 'dist', 'client', 'cli.js')));
} catch (err) {
  if (err && err.code === 'MODULE_NOT_FOUND' && String(err.message).includes(path.join('dist', 'client', 'cli.js'))) {
    console.error('mcp-host: not built yet: run `npm run build` (or `npm start`, which builds) in the project first');
    process.exit(1);
  }
  throw err;
}

// Exits once what was written is out, without closing the Temporal connection first: a call the SDK
// may still be retrying (abandoned when the answer came) must not fire on a closed one (runCli's
// `closeConnection`). Chat and codec-server return only when done.
const exitAfterOutput = (code) => process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));

runCli(process.argv.slice(2), undefined, undefined, undefined, { closeConnection: false }).then(exitAfterOutput, (err) => {
  console.error(`mcp-host: ${err && err.message ? err.message : String(err)}`);
  exitAfterOutput(1);
});
