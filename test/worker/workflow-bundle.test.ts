import { WORKFLOW_STACK_TRACES_ENV, workflowPreloadModules } from '../../src/worker/workflow-bundle';

describe('what the workflow sandbox preloads', () => {
  test('by default, the stack trace limit', () => {
    const modules = workflowPreloadModules({});
    expect(modules).toHaveLength(1);
    expect(modules[0]).toMatch(/[\\/]workflows[\\/]stack-trace-limit\.[jt]s$/);
    expect(workflowPreloadModules({ [WORKFLOW_STACK_TRACES_ENV]: '' })).toEqual(modules);
  });

  test('with MCP_HOST_WORKFLOW_STACK_TRACES=full, nothing: workflows keep their stack traces', () => {
    expect(workflowPreloadModules({ [WORKFLOW_STACK_TRACES_ENV]: 'full' })).toEqual([]);
  });

  test('any other value is refused, naming the variable', () => {
    expect(() => workflowPreloadModules({ [WORKFLOW_STACK_TRACES_ENV]: 'on' })).toThrow('MCP_HOST_WORKFLOW_STACK_TRACES must be "full" or unset, not "on"');
  });
});
