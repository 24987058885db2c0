/**
 * Runs once in each workflow sandbox as it boots, before the SDK freezes its globals (the bundle's
 * `preloadModules`, src/worker/workflow-bundle.ts); never imported by the workflows themselves.
 *
 * The SDK's promise hook captures a stack trace for every promise a workflow creates and maps each
 * frame through the bundle's source map, so that the Web UI's "Stack Trace" tab can show where a
 * workflow waits. Under load that was a quarter to a third of the workflow thread's CPU (issue 11:
 * 200 conversations at once on one worker, `--cpu-prof`). With no frames to capture, the hook costs
 * almost nothing; the price is that errors thrown in workflow code carry their message without a
 * stack, and the "Stack Trace" tab is empty. `MCP_HOST_WORKFLOW_STACK_TRACES=full` at build (or
 * worker start from source) bundles without this module, for debugging.
 */
Error.stackTraceLimit = 0;

export {};
