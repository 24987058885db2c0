/**
 * One patch marker per run (src/workflows/patches.ts): the `combined-patch` recording, made by the
 * current code, reaches the progress and the added-messages patches and holds the combined patch's
 * marker and `TemporalChangeVersion` upsert alone; the recordings made before it hold the single
 * patches' markers, and all of them replay against the current code (test/workflows/replay.test.ts).
 */
import { defaultPayloadConverter } from '@temporalio/common';
import type { History } from '@temporalio/common/lib/proto-utils';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMBINED_PATCH, PATCHES } from '../../src/workflows/patches';
import { historyFromJson } from '../support/history-json';

function recording(name: string): History {
  return historyFromJson(fs.readFileSync(path.join(__dirname, '..', 'histories', `${name}.json`), 'utf8'));
}

function patchMarkers(history: History): string[] {
  return (history.events ?? []).flatMap((e) => {
    const details = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0];
    return details ? [defaultPayloadConverter.fromPayload<{ id: string }>(details).id] : [];
  });
}

function changeVersionUpserts(history: History): string[][] {
  return (history.events ?? []).flatMap((e) => {
    const field = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.TemporalChangeVersion;
    return field ? [defaultPayloadConverter.fromPayload<string[]>(field)] : [];
  });
}

test('a new run records the combined patch once, whatever patches it reaches', () => {
  const history = recording('combined-patch');
  expect(patchMarkers(history)).toEqual([COMBINED_PATCH]);
  expect(changeVersionUpserts(history)).toEqual([[COMBINED_PATCH]]);
  // It did reach both patches: the progress upserts ran, and the Claude calls carried `added`.
  const states = (history.events ?? []).filter((e) => e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.McpHostState);
  expect(states.length).toBeGreaterThan(0);
  const inputs = (history.events ?? []).flatMap((e) =>
    e.activityTaskScheduledEventAttributes?.activityType?.name === 'callClaude' && e.activityTaskScheduledEventAttributes.input?.payloads?.[0]
      ? [defaultPayloadConverter.fromPayload<{ added?: { from: number } }>(e.activityTaskScheduledEventAttributes.input.payloads[0])]
      : [],
  );
  expect(inputs.map((input) => input.added?.from)).toEqual([0, 1, 3]);
});

test('recordings made before it hold the single patches\' markers', () => {
  expect(patchMarkers(recording('progress-metadata'))).toEqual([PATCHES.progress]);
  expect(patchMarkers(recording('claude-added-messages'))).toEqual([PATCHES.progress, PATCHES.addedMessages]);
  expect(patchMarkers(recording('tool-approval'))).toContain(PATCHES.toolApproval);
  expect(patchMarkers(recording('prompt-too-long'))).toContain(PATCHES.escalateOnPromptTooLong);
});

test('the combined patch is none of the single ones', () => {
  expect(Object.values(PATCHES)).not.toContain(COMBINED_PATCH);
  expect(new Set(Object.values(PATCHES)).size).toBe(Object.values(PATCHES).length);
});
