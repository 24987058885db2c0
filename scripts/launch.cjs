// `npm start` / `npm run worker`: run the compiled entry point dist/<entry>.js, building dist/
// first when it is missing or src/ changed since the last build (`npm run build`). Plain
// JavaScript, so it runs before anything is compiled and without tsx in production.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { ROOT, staleReason } = require('./build-inputs.cjs');

const entry = process.argv[2];
if (!entry || !/^[a-z/-]+$/.test(entry)) {
  console.error('usage: node scripts/launch.cjs ENTRY   (e.g. main, worker/main)');
  process.exit(2);
}
const reason = staleReason();
if (reason !== undefined) {
  console.error(`${reason}: building (npm run build) ...`);
  // A Ctrl-C during the build reaches tsc as well; its exit status then stops the launch.
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
require(path.join(ROOT, 'dist', `${entry}.js`));
