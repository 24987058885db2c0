/**
 * Workflow histories to and from Temporal's JSON history format (the one `temporal workflow show
 * --output json` and the Web UI download write), for recording and replaying them. protobufjs 8 is
 * a direct dependency so that one copy serves `@temporalio/proto` and the SDK's JSON helpers.
 */
import { historyFromJSON, historyToJSON, type History } from '@temporalio/common/lib/proto-utils';

/** A history as pretty-printed JSON (ends with a newline, so a re-recording diffs cleanly). */
export function historyToJson(history: History): string {
  return `${JSON.stringify(JSON.parse(historyToJSON(history)), null, 2)}\n`;
}

/** Parses a JSON history into the form `Worker.runReplayHistory` takes as is. */
export function historyFromJson(text: string): History {
  return historyFromJSON(JSON.parse(text) as unknown);
}
