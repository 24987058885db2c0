// What a build of dist/ is made from, as one digest: `npm run build` records it in
// dist/.build-inputs, and `npm start` / `npm run worker` rebuild when it no longer matches
// (content, not mtimes: a fresh clone or a branch switch touches every file).
// Plain JavaScript: the launcher runs it without tsx, before anything is compiled.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const STAMP = path.join(ROOT, 'dist', '.build-inputs');

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory() ? listFiles(file) : [file];
    })
    .sort();
}

/** The digest of src/ and the build's configuration files. */
function inputsDigest() {
  const hash = crypto.createHash('sha256');
  for (const file of [...listFiles(path.join(ROOT, 'src')), ...INPUT_FILES.map((f) => path.join(ROOT, f))]) {
    if (!fs.existsSync(file)) continue;
    hash.update(path.relative(ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Why dist/ must be built, or undefined when it is up to date (or there is no source to build). */
function staleReason() {
  if (!fs.existsSync(path.join(ROOT, 'src'))) return undefined; // an installed package or image: dist/ only
  if (!fs.existsSync(STAMP)) return 'dist/ is missing';
  return fs.readFileSync(STAMP, 'utf8').trim() === inputsDigest() ? undefined : 'src/ changed since the last build';
}

module.exports = { ROOT, STAMP, inputsDigest, staleReason };
