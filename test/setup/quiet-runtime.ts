// Worker logs at WARN in tests: state changes at INFO drown the test output.
import { DefaultLogger, Runtime } from '@temporalio/worker';

try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // Already installed in this jest worker process by an earlier suite.
}
