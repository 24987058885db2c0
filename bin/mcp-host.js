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

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`mcp-host: ${err && err.message ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
