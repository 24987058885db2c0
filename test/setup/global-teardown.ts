import * as fs from 'node:fs';

/** Stops the run's Temporal dev server and removes its temp dir. */
export default async function globalTeardown(): Promise<void> {
  const held = globalThis.__temporalTestEnv;
  if (!held) return;
  globalThis.__temporalTestEnv = undefined;
  await held.env.teardown();
  fs.rmSync(held.dir, { recursive: true, force: true });
}
