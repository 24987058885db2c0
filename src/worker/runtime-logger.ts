/**
 * The Temporal runtime's log level for the worker processes: `LOG_LEVEL` (TRACE, DEBUG, INFO,
 * WARN, ERROR), default WARN — at INFO the SDK logs every worker state change, which buries the
 * start-up lines that matter. Must run before the first worker or native connection is made.
 */
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

const LEVELS: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

/** The level `LOG_LEVEL` names; a value that is not a level is an error, not a silent default. */
export function logLevelFrom(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const raw = env.LOG_LEVEL?.trim().toUpperCase();
  if (raw === undefined || raw === '') return 'WARN';
  const level = LEVELS.find((l) => l === raw);
  if (level === undefined) throw new Error(`LOG_LEVEL must be one of ${LEVELS.join(', ')}, got "${env.LOG_LEVEL ?? ''}"`);
  return level;
}

/** Installs the runtime with that level (once per process; later calls keep the first). */
export function installRuntimeLogger(env: NodeJS.ProcessEnv = process.env): void {
  const level = logLevelFrom(env);
  try {
    Runtime.install({ logger: new DefaultLogger(level) });
  } catch {
    // Already installed (an application that set up its own runtime): keep theirs.
  }
}
