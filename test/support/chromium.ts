/**
 * Headless Chromium for the tests that look at a page as a person would: Debian's `chromium`
 * (`.ci/run` installs it), driven by playwright-core, which brings no browser of its own.
 */
import * as fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`), or CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What the tests need to know to run or skip (for `optionalServerTest`). */
export const CHROMIUM = { name: 'chromium', install: 'apt-get install -y chromium' };

/** True when the browser binary is there. */
export function chromiumInstalled(): boolean {
  return fs.existsSync(CHROMIUM_PATH);
}

/** Launches headless Chromium (no sandbox: the tests run as root; no GPU; no /dev/shm limit). */
export async function launchChromium(): Promise<Browser> {
  if (!chromiumInstalled()) throw new Error(`no Chromium at ${CHROMIUM_PATH}: install it with \`${CHROMIUM.install}\`, or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}
