/**
 * Scenario 8: secrets. The worker holds an API key, an MCP server's `env` secret (which that server
 * quotes in a JSON-RPC error), and an HTTP MCP server's Authorization header and URL token (which
 * that server echoes, with upstream credentials, in an HTTP error). Conversations call both faulty
 * tools. Then every run of every workflow on the suite's server (all scenarios so far) is read,
 * payloads decoded with the project's data converter, and none may hold the API key; none of this
 * scenario's may hold an MCP secret; nor may the worker's log or any request to Claude.
 */
import type { Client } from '@temporalio/client';
import type { conversationWorkflow } from '../../src/workflows';
import { startEchoingHttpServer } from '../../test/fixtures/echoing-http-server';
import { scenarioServer } from '../../test/fixtures/reference-servers';
import { historyText } from '../../test/support/loop-helpers';
import { TEST_API_KEY } from '../../test/support/test-worker';
import { faultResult } from '../report/fault-result';
import type { ChaosScenario } from '../scenario';
import { plannedExpectation } from '../support/check-conversations';
import { injectedCallStep, withInjectedRound, type InjectedCall } from '../support/injected-round';
import { startScenarioRig } from '../support/scenario-rig';

/** MCP secrets of this scenario, by where the worker holds them. */
const MCP_SECRETS = {
  'env value (quoted by its server)': 'chaos-env-s3cret-5e7a1b',
  'Authorization header': 'chaos-hdr-s3cret-91c04d',
  'URL token': 'chaos-qry-s3cret-2b8f6e',
  'upstream password (echoed by the server)': 'chaos-upw-s3cret-d41a73',
};

/** The calls the model makes in turn 1 of conversations 1 and 2: both answer with the secrets in their error text. */
const CALLS: InjectedCall[] = [
  { id: 'toolu_quote_env', name: 'echo_secret', input: {} },
  { id: 'toolu_echo_http', name: 'vault_read', input: {} },
];

/** Every (workflow id, run id) on the server: each run of each conversation, continue-as-new included. */
async function everyRun(client: Client): Promise<Array<{ workflowId: string; runId: string }>> {
  const runs: Array<{ workflowId: string; runId: string }> = [];
  for await (const execution of client.workflow.list()) runs.push({ workflowId: execution.workflowId, runId: execution.runId });
  return runs;
}

/** Scenario 8. */
export const secrets: ChaosScenario = {
  name: 'secrets',
  run: async (context) => {
    context.log('secrets: histories, worker logs and requests to Claude');
    const result = faultResult('secrets', 'secrets (API key; MCP env, header, URL token) in histories, logs, requests');
    const vault = await startEchoingHttpServer(`https://svc:${MCP_SECRETS['upstream password (echoed by the server)']}@vault.internal/v1`);
    try {
      const shape = { ...context.profile.shape, turns: 2, rounds: [1, 1] as const, parallelTools: 1 };
      const rig = await startScenarioRig(
        context,
        'secret',
        {
          extraServers: () => [
            scenarioServer('quoter', { SCENARIO_TOOLS: 'echo_secret', SCENARIO_SECRET: MCP_SECRETS['env value (quoted by its server)'] }),
            {
              name: 'vault',
              transport: 'http',
              url: `${vault.url}?token=${MCP_SECRETS['URL token']}`,
              headers: { Authorization: `Bearer ${MCP_SECRETS['Authorization header']}` },
              tools: {},
            },
          ],
        },
        shape,
      );
      CALLS.forEach((call, i) => rig.model.inject(i + 1, injectedCallStep(call)));
      const workload = rig.workload({ concurrency: 3 });
      await workload.runCount(3);
      // Read before the rig closes its client: every run on the server, decoded.
      const client = rig.client.conversations.client;
      const runs = await everyRun(client);
      const leaks = new Map<string, number>();
      let bytes = 0;
      for (let i = 0; i < runs.length; i += 8) {
        const texts = await Promise.all(
          runs.slice(i, i + 8).map(async ({ workflowId, runId }) => ({ workflowId, text: await historyText(client.workflow.getHandle<typeof conversationWorkflow>(workflowId, runId)) })),
        );
        for (const { workflowId, text } of texts) {
          bytes += text.length;
          if (text.includes(TEST_API_KEY)) leaks.set('API key in a history', (leaks.get('API key in a history') ?? 0) + 1);
          for (const [where, secret] of Object.entries(MCP_SECRETS)) {
            if (workflowId.includes(rig.run) && text.includes(secret)) leaks.set(`MCP ${where} in a history`, (leaks.get(`MCP ${where} in a history`) ?? 0) + 1);
          }
        }
      }
      const logs = rig.fleet.workers.map((w) => w.process.output.join('')).join('');
      const requests = JSON.stringify(rig.model.fake.requests.map((r) => r.body));
      const logLeaks: string[] = [];
      const all = Object.entries({ 'API key': TEST_API_KEY, ...MCP_SECRETS });
      // A line as it was, every secret in it masked, so the report shows where they leak without repeating them.
      const masked = (line: string): string => all.reduce((text, [where, secret]) => text.split(secret).join(`«${where}»`), line);
      for (const [where, secret] of all) {
        const line = logs.split('\n').find((l) => l.includes(secret));
        if (line !== undefined) logLeaks.push(`${where} in the worker's log: "${masked(line).slice(0, 400)}"`);
        if (requests.includes(secret)) leaks.set(`${where} in a request to Claude`, 1);
      }
      const verdicts = await rig.finish(workload, result, async (c) => {
        const call = CALLS[c.number - 1];
        // The faulty tools' calls end in is_error results: the servers' own error text, redacted.
        return call ? withInjectedRound(rig, shape, c, call, 'ended', (r) => r.is_error === true) : plannedExpectation(shape, rig.run, c);
      });
      for (const [what, count] of leaks) result.problems.push(`${what}${count > 1 ? ` (${count} runs)` : ''}`);
      result.problems.push(...logLeaks);
      const echoed = vault.requests.some((r) => r.authorization?.includes(MCP_SECRETS['Authorization header']));
      result.details.push(
        `${runs.length} workflow runs on the server read (every scenario so far; ${(bytes / 2 ** 20).toFixed(1)} MiB of decoded history), ` +
          `${verdicts.length} conversations of this scenario, ${logs.split('\n').length} worker log lines, ${rig.model.fake.requests.length} requests to Claude`,
        `the HTTP server received the header secret (so it was in use): ${echoed ? 'yes' : 'no'}`,
      );
      if (!echoed) result.problems.push('the HTTP MCP server never received the Authorization header: the check proves nothing');
    } finally {
      await vault.close();
    }
    return [result];
  },
};
