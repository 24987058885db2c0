/**
 * Polls an end-to-end condition: until `check` gives a value (not undefined or false), for up to
 * `timeoutMs`. A check that throws counts as not yet: in these tests a query may find no worker for
 * a moment (one was killed and another is starting), or a run continuing as new.
 */
export async function pollUntil<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let value: T | undefined | false;
    try {
      value = await check();
    } catch {
      value = undefined;
    }
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
