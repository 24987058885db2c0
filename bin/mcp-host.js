#!/usr/bin/env node
// The `mcp-host` CLI: runs the TypeScript source through tsx's CommonJS hook (no build step).
'use strict';
require('tsx/cjs');
const { runCli } = require('../src/client/cli.ts');

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`mcp-host: ${err && err.message ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
