/**
 * The recorded `progress-metadata` history (issue 10) holds what it is there to guard: the progress
 * patch's marker, the search attribute upserts and memo changes, and the activity summaries. It
 * replays against the current code in test/workflows/replay.test.ts with the other recordings.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROGRESS_PATCH } from '../../src/workflows/progress';
import { historyFromJson } from '../support/history-json';

const history = historyFromJson(fs.readFileSync(path.join(__dirname, '..', 'histories', 'progress-metadata.json'), 'utf8'));
const events = history.events ?? [];

test('the progress-metadata recording holds the patch marker, the upserts and the summaries', () => {
  const markers = events.flatMap((e) => {
    const details = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0];
    return details ? [defaultPayloadConverter.fromPayload<{ id: string }>(details).id] : [];
  });
  expect(markers).toEqual([PROGRESS_PATCH]);
  const states = events.flatMap((e) => {
    const field = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.McpHostState;
    return field ? [defaultPayloadConverter.fromPayload<string>(field)] : [];
  });
  expect(states).toEqual(['running', 'idle', 'running', 'idle', 'ended']);
  expect(events.filter((e) => e.workflowPropertiesModifiedEventAttributes)).toHaveLength(3);
  const summaries = events.flatMap((e) => (e.activityTaskScheduledEventAttributes && e.userMetadata?.summary ? [defaultPayloadConverter.fromPayload<string>(e.userMetadata.summary)] : []));
  expect(summaries).toContain('get_weather {"city":"广州"} · weather');
  expect(summaries).toContain('list tools: 1 server, 1 tool');
});
