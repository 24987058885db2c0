/** A logger for the benches' workflow bundling: webpack's module list stays out, warnings and errors come through. */
export const quietLogger = {
  log: (): void => undefined,
  trace: (): void => undefined,
  debug: (): void => undefined,
  info: (): void => undefined,
  warn: (message: string): void => console.warn(message),
  error: (message: string): void => console.error(message),
};
