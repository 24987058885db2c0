/**
 * The workflow sandbox captures no stack traces (src/workflows/stack-trace-limit.ts, issue 11: the
 * SDK's per-promise stack capture was a quarter to a third of the workflow thread's CPU under load),
 * unless the bundle is built with MCP_HOST_WORKFLOW_STACK_TRACES=full. Seen through the SDK's
 * `__stack_trace` query, what the Web UI's "Stack Trace" tab shows.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WORKFLOW_STACK_TRACES_ENV, writeWorkflowBundle } from '../../src/worker/workflow-bundle';
import { startConversation } from '../support/loop-helpers';
import { startTestWorker, type TestWorker } from '../support/test-worker';

/** An idle conversation's `__stack_trace` on a worker running `bundlePath` (default the run's bundle). */
async function idleStackTrace(bundlePath?: string): Promise<string> {
  let w: TestWorker | undefined;
  try {
    w = await startTestWorker({ servers: [], ...(bundlePath !== undefined ? { workflowBundlePath: bundlePath } : {}) });
    const handle = await startConversation(w, {}, 'stack');
    const trace = await handle.query<string>('__stack_trace');
    await handle.terminate('test over');
    return trace;
  } finally {
    await w?.stop();
  }
}

describe('stack traces in the workflow sandbox', () => {
  test('the bundle as built captures none: the stack trace query has no frames', async () => {
    const trace = await idleStackTrace();
    expect(trace).not.toMatch(/\bat /);
  });

  test(`built with ${WORKFLOW_STACK_TRACES_ENV}=full, the query shows where the workflow waits`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-stack-'));
    const saved = process.env[WORKFLOW_STACK_TRACES_ENV];
    try {
      process.env[WORKFLOW_STACK_TRACES_ENV] = 'full';
      const bundle = path.join(dir, 'workflow-bundle.js');
      await writeWorkflowBundle(bundle);
      const trace = await idleStackTrace(bundle);
      expect(trace).toMatch(/\bat .*conversation-workflow/);
    } finally {
      if (saved === undefined) delete process.env[WORKFLOW_STACK_TRACES_ENV];
      else process.env[WORKFLOW_STACK_TRACES_ENV] = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
