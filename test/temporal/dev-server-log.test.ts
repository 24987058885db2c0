/**
 * What of the dev server's log reaches `npm start`'s terminal. The lines are the dev server's own
 * (Temporal CLI 1.9.1, `--log-level warn`), captured from an update-with-start left waiting and from
 * the Web UI's history request.
 */
import { classifyDevServerLine, DevServerLogFilter, REPEAT_WINDOW_MS } from '../../src/temporal/dev-server-log';

const SLOW_UPDATE_WITH_START =
  'time=2026-12-07T11:12:36.795 level=WARN msg="Slow gRPC call" duration=19.88588966s method=/temporal.api.workflowservice.v1.WorkflowService/ExecuteMultiOperation';
const LARGE_HISTORY_PAGE =
  'time=2026-12-07T11:12:37.864 level=WARN msg="GetHistory page size is larger than threshold" service=frontend wf-id=w1 wf-run-id="" wf-namespace-id=01a25034-41ec-788e-9fbb-af0000b0ea7a wf-size=1000';
const SLOW_START = 'time=2026-12-07T11:12:38.001 level=WARN msg="Slow gRPC call" duration=11.2s method=/temporal.api.workflowservice.v1.WorkflowService/StartWorkflowExecution';
const PERSISTENCE_ERROR = 'time=2026-12-07T11:12:39.000 level=ERROR msg="Operation failed with internal error." error="context deadline exceeded" operation=UpdateWorkflowExecution';

describe('the dev server log on the terminal', () => {
  test('waiting updates and the Web UI’s large pages are routine; everything else is shown', () => {
    expect(classifyDevServerLine(SLOW_UPDATE_WITH_START)).toBe('routine');
    expect(classifyDevServerLine(SLOW_UPDATE_WITH_START.replace('ExecuteMultiOperation', 'UpdateWorkflowExecution'))).toBe('routine');
    expect(classifyDevServerLine(LARGE_HISTORY_PAGE)).toBe('routine');
    expect(classifyDevServerLine('{"level":"warn","msg":"GetHistory page size is larger than threshold","wf-size":1000}')).toBe('routine');
    // A slow call that does not wait by design means an overloaded server: shown.
    expect(classifyDevServerLine(SLOW_START)).toBe('shown');
    expect(classifyDevServerLine(PERSISTENCE_ERROR)).toBe('shown');
    // The persistence operation named UpdateWorkflowExecution is not a slow-call line.
    expect(classifyDevServerLine('level=WARN msg="something else" method=/x/ExecuteMultiOperation')).toBe('shown');
    expect(classifyDevServerLine('not a log line at all')).toBe('shown');
  });

  test('a repeated warning is shown once a minute, saying how many were held back', () => {
    let now = 0;
    const filter = new DevServerLogFilter(() => now);
    expect(filter.toTerminal(SLOW_UPDATE_WITH_START)).toBeUndefined();
    expect(filter.toTerminal(SLOW_START)).toBe(SLOW_START);
    now += 1000;
    expect(filter.toTerminal(SLOW_START)).toBeUndefined();
    expect(filter.toTerminal(PERSISTENCE_ERROR)).toBe(PERSISTENCE_ERROR);
    now += 1000;
    expect(filter.toTerminal(SLOW_START)).toBeUndefined();
    now += REPEAT_WINDOW_MS;
    expect(filter.toTerminal(SLOW_START)).toBe(`${SLOW_START} (2 more like it since the last shown)`);
    now += REPEAT_WINDOW_MS;
    expect(filter.toTerminal(SLOW_START)).toBe(SLOW_START);
  });
});
