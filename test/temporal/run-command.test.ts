import { failureLine, runCommand, shortReason } from '../../src/temporal/run-command';

describe('one-line failure reasons', () => {
  test("the SDK download's repeated error chain becomes its head and root cause", () => {
    const url = 'https://temporal.download/cli/default?arch=amd64&platform=linux&format=tar.gz';
    const message =
      `Failed to start ephemeral server: failed to download ephemeral server executable: error sending request for url (${url}): ` +
      `error sending request for url (${url}): client error (Connect): dns error: failed to lookup address information: Name or service not known\nmore`;
    expect(shortReason(message)).toBe('Failed to start ephemeral server … failed to lookup address information: Name or service not known');
  });

  test('short messages stay as they are', () => {
    expect(shortReason('no Go toolchain found')).toBe('no Go toolchain found');
    expect(shortReason('timed out: after 180 s')).toBe('timed out: after 180 s');
  });

  test("pip's ERROR line is the reason, not the last line", () => {
    expect(failureLine({ code: 1, stdout: '', stderr: 'Collecting x\nERROR: THESE PACKAGES DO NOT MATCH THE HASHES\n    Got abc\n' })).toBe(
      'ERROR: THESE PACKAGES DO NOT MATCH THE HASHES',
    );
    expect(failureLine({ code: 2, stdout: '', stderr: '' })).toBe('exit code 2');
    expect(failureLine({ code: null, stdout: '', stderr: '', error: 'timed out after 5 s' })).toBe('timed out after 5 s');
  });

  test('a command that cannot start or hangs ends with a reason', async () => {
    const missing = await runCommand('/nonexistent/tool', [], { timeoutMs: 5_000 });
    expect(missing.code).toBeNull();
    expect(missing.error).toMatch(/ENOENT/);
    const hung = await runCommand(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { timeoutMs: 300 });
    expect(hung.code).toBeNull();
    expect(hung.error).toBe('timed out after 0.3 s');
  });
});
