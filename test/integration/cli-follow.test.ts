/**
 * `mcp-host send` without a terminal (issue 10, live progress): by default it prints what it
 * always printed (scripts and the chaos suite read it); `--follow` adds the progress and the
 * streaming text on stderr and leaves stdout the answer alone; a failing tool call says why.
 * Real processes: the compiled CLI and worker, the seed's weather server, the fake Messages API.
 */
import { randomUUID } from 'node:crypto';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { runCliProcess, type CliRun } from '../support/cli-process';
import { weatherServer } from '../support/repo';
import { seedReplies } from '../support/seed-transcript';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

describe('mcp-host send --follow', () => {
  let fake: FakeMessagesApi;
  let worker: WorkerProcess;
  const taskQueue = `cli-follow-${randomUUID()}`;
  const cli = (args: string[]): Promise<CliRun> => runCliProcess(args, { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue });

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath: writeMcpConfig([weatherServer()]), claudeBaseUrl: fake.url });
  }, 90_000);
  afterAll(async () => {
    await worker?.stop();
    await fake?.close();
  });

  test('stdout is the answer alone, with or without --follow; --follow shows the tool call and the text on stderr', async () => {
    const [greeting, beijingCall, beijingAnswer, shanghaiCall, shanghaiAnswer] = seedReplies();
    fake.enqueue(greeting!, beijingCall!, beijingAnswer!, shanghaiCall!, shanghaiAnswer!);
    const id = `follow-${randomUUID()}`;
    expect(await cli(['start', '--id', id, '--wait', '你好'])).toMatchObject({ code: 0 });

    const plain = await cli(['send', id, '北京今天天气怎么样']);
    expect(plain).toMatchObject({ code: 0, stdout: '北京今天晴，25°C，适合出门。\n', stderr: '' });

    const followed = await cli(['send', id, '那上海呢', '--follow']);
    expect(followed).toMatchObject({ code: 0, stdout: '上海今天多云，22°C。\n' });
    expect(followed.stderr).toMatch(/^ {2}→ get_weather \{"city":"上海"\} · weather$/m);
    expect(followed.stderr).toMatch(/^ {2}✓ get_weather \d+\.\d s$/m);
    // The answer streamed on stderr too, after the tool call.
    expect(followed.stderr.indexOf('上海今天多云，22°C。')).toBeGreaterThan(followed.stderr.indexOf('✓ get_weather'));

    // --no-follow and --follow are flags of send only; the usage says so.
    expect((await cli(['send', id, 'x', '--frobnicate'])).code).toBe(2);
  }, 120_000);
});
