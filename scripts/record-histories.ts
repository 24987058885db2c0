/**
 * Records the workflow histories that `test/workflows/replay.test.ts` replays against the current workflow
 * code (house rule 10):
 *
 *   npx tsx scripts/record-histories.ts [--only NAME,…]
 *
 * It starts its own Temporal dev server from the existing CLI binary (never a download), runs each
 * scenario of `test/support/recorded-scenarios.ts` on an in-process worker built from the current
 * source, checks the results are the intended ones, and writes `test/histories/<scenario>.json`.
 * Nothing is written for a scenario that misbehaves, or whose history contains an API key.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conversationOptions } from '../src/client/conversation-options';
import { initialProgressAttributes } from '../src/client/progress-attributes';
import { startMetadata } from '../src/client/start-metadata';
import { PROGRESS_ATTRIBUTES, WAITING_INPUT_ATTRIBUTE } from '../src/workflows/progress-attributes';
import { findTemporalCli } from '../src/temporal/find-temporal-cli';
import { conversationWorkflow } from '../src/workflows';
import { approveToolCallsUpdate, denyToolCallsUpdate, endSignal, respondToInputUpdate, sendMessageUpdate, setBudgetUpdate, setContextStrategyUpdate, setThinkingUpdate, statusQuery } from '../src/workflows/definitions';
import { RECORDED_SCENARIOS, recordedWorkflowId, type RecordedApproval, type RecordedInput, type RecordedScenario } from '../test/support/recorded-scenarios';
import { historyToJson } from '../test/support/history-json';
import { REPO_ROOT } from '../test/support/repo';
import { scheduledActivityTypes } from '../test/support/scheduled-activities';
import { startTestWorker, TEST_API_KEY } from '../test/support/test-worker';

const HISTORIES_DIR = path.join(REPO_ROOT, 'test', 'histories');

/** Throws unless every field of `expected` equals the same field of `actual`. */
function expectFields(what: string, actual: object, expected: object): void {
  const fields = actual as Record<string, unknown>;
  for (const [key, value] of Object.entries(expected)) {
    if (fields[key] !== value) {
      throw new Error(`${what}: ${key} is ${JSON.stringify(fields[key])}, expected ${JSON.stringify(value)}`);
    }
  }
}

/** Waits until the conversation runs in a run other than `firstRunId` (it continued as new); returns that run's id. */
async function newRun(workflowId: string, firstRunId: string, client: Client): Promise<string> {
  const giveUpAt = Date.now() + 30_000;
  for (;;) {
    const { runId } = await client.workflow.getHandle(workflowId).describe();
    if (runId !== firstRunId) return runId;
    if (Date.now() > giveUpAt) throw new Error(`${workflowId} did not continue as new within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Sends the turn's approvals, each once the calls it names wait for approval. */
async function sendApprovals(handle: WorkflowHandle, approvals: readonly RecordedApproval[]): Promise<void> {
  for (const approval of approvals) {
    const ids = 'approve' in approval ? approval.approve : approval.deny;
    const giveUpAt = Date.now() + 30_000;
    for (;;) {
      const waiting = (await handle.query(statusQuery)).pendingApprovals.map((p) => p.toolUseId);
      if (ids.every((id) => waiting.includes(id))) break;
      if (Date.now() > giveUpAt) throw new Error(`${ids.join(', ')} did not wait for approval within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await ('approve' in approval
      ? handle.executeUpdate(approveToolCallsUpdate, { args: [{ toolUseIds: approval.approve }] })
      : handle.executeUpdate(denyToolCallsUpdate, { args: [{ toolUseIds: approval.deny, ...(approval.reason !== undefined ? { reason: approval.reason } : {}) }] }));
  }
}

/** Sends the turn's answers to servers' requests, each once a request of its server waits. */
async function sendInputs(handle: WorkflowHandle, inputs: readonly RecordedInput[]): Promise<void> {
  for (const input of inputs) {
    const giveUpAt = Date.now() + 30_000;
    let requestId: string | undefined;
    for (;;) {
      requestId = ((await handle.query(statusQuery)).pendingInputs ?? []).find((p) => p.server === input.server)?.requestId;
      if (requestId !== undefined) break;
      if (Date.now() > giveUpAt) throw new Error(`no request of server ${input.server} waited within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await handle.executeUpdate(respondToInputUpdate, { args: [{ requestId, action: input.action, ...(input.content !== undefined ? { content: input.content } : {}) }] });
  }
}

/** Runs one scenario to its end and returns its history as pretty-printed proto JSON. */
async function record(scenario: RecordedScenario): Promise<string> {
  const worker = await startTestWorker({ servers: scenario.servers(), script: scenario.script });
  try {
    const options = conversationOptions(scenario.options);
    const handle = await worker.client.workflow.start(conversationWorkflow, {
      taskQueue: worker.taskQueue,
      workflowId: recordedWorkflowId(scenario.name),
      args: [{ options }],
      ...(scenario.startedWithProgress
        ? { ...startMetadata(scenario.turns[0]?.text ?? '', options), typedSearchAttributes: initialProgressAttributes(true) }
        : {}),
    });
    let recordedRunId: string | undefined; // the run after the continue-as-new, when the scenario has one
    for (const [index, turn] of scenario.turns.entries()) {
      if (turn.setThinking !== undefined) await handle.executeUpdate(setThinkingUpdate, { args: [turn.setThinking] });
      if (turn.context !== undefined) await handle.executeUpdate(setContextStrategyUpdate, { args: [turn.context] });
      if (turn.budget !== undefined) await handle.executeUpdate(setBudgetUpdate, { args: [turn.budget] });
      const answer = handle.executeUpdate(sendMessageUpdate, { args: turn.content !== undefined ? [turn.text, turn.content] : [turn.text] });
      if (turn.approvals) await sendApprovals(handle, turn.approvals);
      if (turn.inputs) await sendInputs(handle, turn.inputs);
      const result = await answer;
      expectFields(`${scenario.name} turn ${index + 1}`, result, turn.expect);
      if (scenario.continuesAsNewAfterTurn === index + 1) recordedRunId = await newRun(handle.workflowId, handle.firstExecutionRunId, worker.client);
    }
    // Ended, so the history is complete: replay then covers the workflow's last command too.
    await handle.signal(endSignal);
    const summary = await handle.result();
    expectFields(`${scenario.name} final status`, summary.status, scenario.status);
    if (worker.fake.requests.length !== scenario.requests) {
      throw new Error(`${scenario.name}: the fake got ${worker.fake.requests.length} requests, expected ${scenario.requests}`);
    }
    const history = await worker.client.workflow.getHandle(handle.workflowId, recordedRunId).fetchHistory();
    const activities = scheduledActivityTypes(history).join(',');
    if (activities !== scenario.activities.join(',')) {
      throw new Error(`${scenario.name}: scheduled ${activities}, expected ${scenario.activities.join(',')}`);
    }
    const json = historyToJson(history);
    if (json.includes(TEST_API_KEY) || json.includes('sk-ant-')) {
      throw new Error(`${scenario.name}: the history contains an API key; nothing written`);
    }
    return json;
  } finally {
    await worker.stop();
  }
}

async function main(): Promise<void> {
  const cli = findTemporalCli();
  if (!cli) throw new Error('No Temporal CLI found. Run `npm run setup` (builds it once), or set TEMPORAL_CLI_PATH.');
  // ERROR only: retry-then-success fails an activity on purpose, and its warning is not news.
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cli.path },
      ip: '127.0.0.1',
      searchAttributes: [...PROGRESS_ATTRIBUTES, WAITING_INPUT_ATTRIBUTE],
      log: { format: 'pretty', level: 'error' },
    },
  });
  try {
    // startTestWorker reads the address; without a prebuilt bundle it bundles the current source.
    process.env.TEMPORAL_TEST_ADDRESS = env.address;
    delete process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE;
    fs.mkdirSync(HISTORIES_DIR, { recursive: true });
    // `--only NAME[,NAME…]` records just those scenarios, leaving the other files as they are.
    const onlyAt = process.argv.indexOf('--only');
    const only = onlyAt >= 0 ? new Set((process.argv[onlyAt + 1] ?? '').split(',')) : undefined;
    for (const scenario of RECORDED_SCENARIOS.filter((s) => !only || only.has(s.name))) {
      const json = await record(scenario);
      const file = path.join(HISTORIES_DIR, `${scenario.name}.json`);
      fs.writeFileSync(file, json);
      process.stderr.write(`wrote ${path.relative(REPO_ROOT, file)}\n`);
    }
  } finally {
    await env.teardown();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
