/**
 * MCP tasks (issue 27): a tool call its server runs as a task is polled to its result, and an
 * attempt after a lost worker polls the same task instead of calling the tool again. Both wires:
 * the 2025-11-25 experimental tasks and the 2026-07-28 tasks extension (`task-support.ts`).
 */
export { DEFAULT_TASK_TTL_MS, TaskDriver, type TaskCallbacks, type TaskDriverOptions } from './task-driver';
export { resumeWireFor, taskSupportOf, taskWireFor, type TaskSupport, type TaskWire } from './task-support';
export { isTerminal, pollDelayMs, type TaskInputRequest, type TaskSnapshot, type TaskStatus } from './task-wire';
export { taskStillRunning } from './task-errors';
