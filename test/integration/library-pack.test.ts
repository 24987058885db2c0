/**
 * The library as an application uses it: the README's example, compiled with tsc against the
 * installed package's types and run against the test dev server, with the offline stand-in of
 * the Messages API and the packaged weather server. Proves `exports`, `files`, the declarations
 * and the production dependency set, not just the source.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startOfflineStandIn, type MessagesApiServer } from '../../src/offline';
import { installPackedPackage } from '../support/installed-package';
import { REPO_ROOT } from '../support/repo';
import { temporalAddress, TEST_API_KEY } from '../support/test-worker';

/** The README's library example, exactly as it stands there. */
function readmeExample(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const match = /<!-- library-example:[^>]*-->\n```ts\n([\s\S]*?)```/.exec(readme);
  if (!match?.[1]) throw new Error('README.md has no library-example block');
  return match[1];
}

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the packed library', () => {
  let standIn: MessagesApiServer;
  let appDir: string;
  let tarballFiles: string[];

  beforeAll(async () => {
    standIn = await startOfflineStandIn();
    ({ appDir, tarballFiles } = installPackedPackage());
  }, 180_000);
  afterAll(async () => {
    await standIn?.close();
  });

  it('publishes the build, not the sources or the tests, and installs without dev dependencies', () => {
    expect(tarballFiles).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/workflow.js', 'dist/workflow-bundle.js', 'bin/mcp-host.js']));
    expect(tarballFiles.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    for (const devOnly of ['tsx', '@swc/jest', 'jest', 'typescript']) {
      expect(fs.existsSync(path.join(appDir, 'node_modules', devOnly))).toBe(false);
    }
  });

  it('type-checks and runs the README example against Temporal', async () => {
    fs.writeFileSync(path.join(appDir, 'example.ts'), readmeExample());
    fs.writeFileSync(
      path.join(appDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, noUncheckedIndexedAccess: true,
          skipLibCheck: true, types: ['node'], typeRoots: [path.join(REPO_ROOT, 'node_modules/@types')], outDir: '.',
        },
        files: ['example.ts'],
      }),
    );
    const tsc = await run(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], appDir, {});
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
    // With the libraries' declarations checked too, none of the errors may be in this package's
    // (some dependencies' own declarations do not check without their dev dependencies).
    const strict = await run(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--skipLibCheck', 'false', '--noEmit'], appDir, {});
    expect((strict.stdout + strict.stderr).split('\n').filter((line) => line.includes('durable-mcp-host/'))).toEqual([]);

    const example = await run(process.execPath, ['example.js'], appDir, {
      TEMPORAL_ADDRESS: temporalAddress(),
      MCP_HOST_TASK_QUEUE: `library-${randomUUID()}`,
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: standIn.url,
    });
    expect({ code: example.code, stderr: example.stderr }).toMatchObject({ code: 0 });
    const lines = example.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^conversation-\S+ .*北京/);
    expect(lines[1]).toMatch(/上海/);
    expect(lines[2]).toMatch(/^[1-9]\d* tool calls; [1-9]\d* listed$/);
  }, 120_000);
});
