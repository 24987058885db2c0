import type { Client } from '@temporalio/client';
import { countConversations, gaugeQueries, startConversationGauges } from '../../src/telemetry/conversation-gauges';
import { HostMetrics } from '../../src/telemetry/host-metrics';
import { RecordingMeter } from '../support/recording-meter';

/** A client whose namespace has (or lacks) the McpHost* attributes and whose count answers by query. */
function fakeClient(registered: string[], count: (query: string) => number | Error): Client & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    options: { namespace: 'default' },
    connection: { operatorService: { listSearchAttributes: () => Promise.resolve({ customAttributes: Object.fromEntries(registered.map((n) => [n, 1])) }) } },
    workflow: {
      count: (query: string) => {
        queries.push(query);
        const answer = count(query);
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve({ count: answer, groups: [] });
      },
    },
  } as unknown as Client & { queries: string[] };
}

const ALL = ['McpHostState', 'McpHostTurns', 'McpHostToolCalls', 'McpHostTokens', 'McpHostWaitingApproval', 'McpHostWaitingInput'];

describe('the conversation gauges (visibility counts)', () => {
  it('the queries: open conversations of the task queue, and by the McpHost* attributes where registered', () => {
    const open = "WorkflowType = 'conversationWorkflow' AND ExecutionStatus = 'Running' AND TaskQueue = 'mcp-host'";
    expect(gaugeQueries('mcp-host', { progress: true, waitingInput: true })).toEqual({
      open,
      turnsRunning: `${open} AND McpHostState = 'running'`,
      approvalsWaiting: `${open} AND McpHostWaitingApproval = true`,
      inputsWaiting: `${open} AND McpHostWaitingInput = true`,
    });
    expect(gaugeQueries('mcp-host', { progress: false, waitingInput: false })).toEqual({ open });
    expect(() => gaugeQueries("q' OR 1=1", { progress: true, waitingInput: true })).toThrow(/cannot be counted/);
  });

  it('counts each gauge; without the attributes only the open conversations', async () => {
    const client = fakeClient(ALL, (query) => (query.endsWith("'mcp-host'") ? 4 : query.includes('McpHostState') ? 2 : 1));
    expect(await countConversations(client, 'mcp-host')).toEqual({ open: 4, turnsRunning: 2, approvalsWaiting: 1, inputsWaiting: 1 });
    const bare = fakeClient([], () => 7);
    expect(await countConversations(bare, 'mcp-host')).toEqual({ open: 7 });
    expect(bare.queries).toHaveLength(1);
  });

  it('counts at once and at each interval; a failure is told once and the gauges keep their values; stop ends it', async () => {
    jest.useFakeTimers();
    try {
      let fail = false;
      const client = fakeClient(ALL, () => (fail ? new Error('visibility unavailable') : 1));
      const meter = new RecordingMeter();
      const lines: string[] = [];
      const gauges = startConversationGauges({ client, namespace: 'default', taskQueue: 'mcp-host', metrics: new HostMetrics(meter, 'prometheus'), intervalMs: 1000, log: (l) => lines.push(l) });
      await jest.advanceTimersByTimeAsync(10);
      expect(meter.of('mcp_host_conversations_open').map((v) => v.value)).toEqual([1]);
      fail = true;
      await jest.advanceTimersByTimeAsync(3000);
      expect(lines).toEqual(['metrics: counting conversations in visibility failed, the gauges keep their last values: visibility unavailable']);
      expect(meter.of('mcp_host_conversations_open')).toHaveLength(1);
      fail = false;
      await jest.advanceTimersByTimeAsync(1000);
      expect(meter.of('mcp_host_conversations_open')).toHaveLength(2);
      await gauges.stop();
      const counted = client.queries.length;
      await jest.advanceTimersByTimeAsync(5000);
      expect(client.queries).toHaveLength(counted);
    } finally {
      jest.useRealTimers();
    }
  });
});
