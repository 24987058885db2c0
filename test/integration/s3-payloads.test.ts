/**
 * Issue 31, the payload store on S3: a fleet without a shared disk. A real S3-compatible server
 * (Versity Gateway, test/support/s3-server.ts), two compiled worker processes and `mcp-host` CLI
 * processes, each with a local payload directory of its own and the same `MCP_HOST_PAYLOAD_STORE`,
 * with payload encryption on. A conversation of photos grows past 2 MB and continues as new on
 * worker A, which is then killed (kill -9); worker B, which never saw the conversation, replays the
 * new run from the S3 store and answers the next turn; `mcp-host history` and `mcp-host
 * codec-server` read the whole transcript back from it. No local directory gets a file; every
 * object is under the prefix, named by its SHA-256, and holds ciphertext.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { conversationOptions } from '../../src/client/conversation-options';
import type { MessageParam } from '../../src/conversation/types';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { conversationWorkflow } from '../../src/workflows';
import { runCliProcess, type CliRun } from '../support/cli-process';
import { optionalServerTest } from '../support/optional-server';
import { photoBase64 } from '../fixtures/photo-bytes';
import { expectedPhotoTurn, PHOTO_CHARS, photoModel } from '../support/photo-turns';
import { pollUntil } from '../support/poll-until';
import { REPO_ROOT, tsServer } from '../support/repo';
import { S3_SERVER, s3ServerInstalled, startS3Server, type S3Server } from '../support/s3-server';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

const s3Test = optionalServerTest(S3_SERVER, s3ServerInstalled());
const KEY = randomBytes(32).toString('base64');
const MAX_TURNS = 14;

/** The files under a directory (none: the local store was never used). */
const filesUnder = (dir: string): string[] => (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile());

const payloadJson = (payload: Payload): { metadata: Record<string, string>; data: string } => ({
  metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  data: Buffer.from(payload.data ?? []).toString('base64'),
});

describe('payload store on S3 (issue 31)', () => {
  let s3: S3Server | undefined;
  let fake: FakeMessagesApi | undefined;
  let connection: Connection | undefined;
  let codecServer: ChildProcess | undefined;
  const workers: WorkerProcess[] = [];
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-s3-test-'));
  const dirs = { workerA: path.join(root, 'worker-a'), workerB: path.join(root, 'worker-b'), cli: path.join(root, 'cli') };
  const prefix = `fleet/${randomUUID().slice(0, 8)}`;
  const taskQueue = `s3-${randomUUID()}`;

  afterAll(async () => {
    codecServer?.kill('SIGTERM');
    for (const worker of workers) await worker.stop();
    await connection?.close();
    await fake?.close();
    if (s3 !== undefined) await s3.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  s3Test(
    'a conversation over 2 MB continues as new on worker A, survives its kill -9, and worker B, the CLI and the codec server read it from S3 alone',
    async () => {
      for (const dir of Object.values(dirs)) fs.mkdirSync(dir);
      s3 = await startS3Server();
      fake = await startFakeMessagesApi({ mode: 'scripted' });
      fake.enqueue(...Array.from({ length: 2 * MAX_TURNS + 4 }, () => photoModel));
      connection = await Connection.connect({ address: temporalAddress() });
      const server = s3;
      const common: Record<string, string> = { ...server.env(prefix), MCP_HOST_ENCRYPTION_KEY: KEY, MCP_HOST_ENCRYPTION_KEY_ID: 's3-test' };
      const secret = common.AWS_SECRET_ACCESS_KEY ?? '';
      const mcpConfigPath = writeMcpConfig([tsServer('photo', 'test/fixtures/photo-server.ts')]);
      const spawnWorker = async (dir: string): Promise<WorkerProcess> => {
        const worker = await spawnWorkerProcess({
          address: temporalAddress(),
          taskQueue,
          mcpConfigPath,
          claudeBaseUrl: fake?.url ?? '',
          env: { ...common, MCP_HOST_PAYLOAD_DIR: dir },
        });
        workers.push(worker);
        return worker;
      };
      const cli = (args: string[]): Promise<CliRun> =>
        runCliProcess(args, { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue, ...common, MCP_HOST_PAYLOAD_DIR: dirs.cli });

      const workerA = await spawnWorker(dirs.workerA);
      expect(workerA.output.join('')).toContain(`Payload store: s3://${server.bucket}/${prefix} at ${server.endpoint} (path-style), region us-east-1, credentials from the AWS default chain`);
      expect(secret).not.toBe('');
      expect(workerA.output.join('')).not.toContain(secret);

      // The test's own client only starts the conversation (small arguments) and watches its runs.
      const client = new Client({ connection });
      const workflowId = `s3-photos-${randomUUID()}`;
      const handle = await client.workflow.start(conversationWorkflow, {
        taskQueue,
        workflowId,
        // Continue-as-new once the state is well above 2 MB (360 KB and some 40 events a turn).
        args: [{ options: conversationOptions({ maxIterations: 3, continueAsNewAfterEvents: 300 }) }],
      });
      // The raw description: its memo is encrypted, and this client holds no key.
      const runId = async (): Promise<string> =>
        (await client.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId } })).workflowExecutionInfo?.execution?.runId ?? '';

      // Turns sent by `mcp-host send` processes, until the conversation has continued as new.
      let turn = 0;
      while ((await runId()) === handle.firstExecutionRunId) {
        turn += 1;
        if (turn > MAX_TURNS) throw new Error(`no continue-as-new after ${MAX_TURNS} turns`);
        const sent = await cli(['send', workflowId, `photos ${turn}`]);
        if (sent.code !== 0) throw new Error(`mcp-host send, turn ${turn}: exit ${String(sent.code)}\n${sent.stderr}\nworker A:\n${workerA.output.join('')}`);
        expect(sent.stdout).toContain(`seen ${turn}`);
        if ((await runId()) === handle.firstExecutionRunId) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const turnsBefore = turn;
      const secondRun = await pollUntil('the new run to start', async () => {
        const id = await runId();
        return id !== handle.firstExecutionRunId ? id : undefined;
      });

      // The new run's input is the state carried over: a small reference in the history, over 2 MB in S3.
      const startedEvent = (await client.workflow.getHandle(workflowId, secondRun).fetchHistory()).events?.[0];
      const input = startedEvent?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
      expect(input?.data?.length).toBeLessThan(1024);
      const objects = await server.list(`${prefix}/`);
      const largest = Math.max(...objects.map((o) => o.Size ?? 0));
      // Gzipped, then encrypted: the state is over 2 MB as JSON (checked below, decoded), base64 of random bytes shrinks to 3/4.
      expect(largest).toBeGreaterThan(1.5 * 1024 * 1024);
      for (const object of objects) expect(object.Key).toMatch(new RegExp(`^${prefix}/sha256/[0-9a-f]{64}$`));
      process.stdout.write(
        `S3 objects under s3://${server.bucket}/${prefix}/ after continue-as-new (turn ${turnsBefore}):\n${objects.map((o) => `  ${o.Key ?? ''}  ${o.Size ?? 0} bytes`).join('\n')}\n`,
      );
      // Ciphertext: no object holds a turn's text or a photo's base64 in the clear.
      const bucketDir = path.join(server.dataDir, server.bucket);
      for (const object of objects) {
        const bytes = fs.readFileSync(path.join(bucketDir, object.Key ?? ''));
        expect(bytes.includes('binary/encrypted')).toBe(true);
        expect(bytes.includes('photos 1')).toBe(false);
        expect(bytes.includes(photoBase64('1-0', PHOTO_CHARS).slice(0, 64))).toBe(false);
      }

      // Worker A, which wrote it all, dies; worker B, with its own empty directory, takes over.
      workerA.kill9Group();
      expect(await workerA.exited).toBeNull();
      await spawnWorker(dirs.workerB);
      turn += 1;
      const last = await cli(['send', workflowId, `photos ${turn}`]);
      if (last.code !== 0) throw new Error(`mcp-host send, turn ${turn}: exit ${String(last.code)}\n${last.stderr}`);
      expect(last.stdout).toContain(`seen ${turn}`);

      // `mcp-host history`, from yet another directory: the whole transcript, exact.
      const read = await cli(['history', workflowId, '--json']);
      expect(read.code).toBe(0);
      const messages = JSON.parse(read.stdout) as MessageParam[];
      const expected = Array.from({ length: turn }, (_, i) => expectedPhotoTurn(i + 1)).flat();
      expect(messages.length).toBe(expected.length);
      expect(messages).toEqual(expected);
      expect(read.stdout.length).toBeGreaterThan(2 * 1024 * 1024);

      // The codec server (its own directory too) decodes the carried state from its reference.
      codecServer = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/mcp-host.js'), 'codec-server', '--port', '0'], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...common, MCP_HOST_PAYLOAD_DIR: path.join(root, 'codec') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const codecUrl = await new Promise<string>((resolve, reject) => {
        let out = '';
        codecServer?.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /codec server on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (found?.[1] !== undefined && out.includes('Payload store: s3://')) resolve(found[1]);
        });
        codecServer?.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
        codecServer?.once('exit', (code) => reject(new Error(`codec-server exited (${String(code)}): ${out}`)));
      });
      const decoded = await fetch(`${codecUrl}/decode`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ payloads: input !== undefined && input !== null ? [payloadJson(input)] : [] }),
      });
      expect(decoded.status).toBe(200);
      const [state] = ((await decoded.json()) as { payloads: Array<{ data: string }> }).payloads;
      const stateText = Buffer.from(state?.data ?? '', 'base64').toString('utf8');
      expect(stateText.length).toBeGreaterThan(2 * 1024 * 1024);
      expect(stateText).toContain(`seen ${turnsBefore}`);

      // No process ever wrote to its local directory: S3 was the only store.
      for (const dir of Object.values(dirs)) expect(filesUnder(dir)).toEqual([]);
      process.stdout.write(
        `worker B answered turn ${turn} after worker A's kill -9; mcp-host history read ${messages.length} messages (${read.stdout.length} bytes of JSON); the codec server decoded the carried state (${stateText.length} bytes)\n`,
      );
    },
    15 * 60_000,
  );
});
