/**
 * Compares a conversation's messages with the ones it must hold: exact or not, and if not, how
 * many expected messages are missing (lost) and how many are there too often (duplicated).
 */
import type { MessageParam } from '../../src/conversation/types';

/** How a transcript differs from the expected one. */
export interface TranscriptDiff {
  exact: boolean;
  lost: number;
  duplicated: number;
}

/** JSON with object keys sorted, so two equal messages give the same text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Compares as multisets of messages (lost, duplicated) and as sequences (exact). */
export function diffTranscript(expected: readonly MessageParam[], actual: readonly MessageParam[]): TranscriptDiff {
  const want = expected.map(canonicalJson);
  const got = actual.map(canonicalJson);
  const remaining = new Map<string, number>();
  for (const key of want) remaining.set(key, (remaining.get(key) ?? 0) + 1);
  let duplicated = 0;
  for (const key of got) {
    const left = remaining.get(key) ?? 0;
    if (left > 0) remaining.set(key, left - 1);
    else duplicated += 1;
  }
  let lost = 0;
  for (const left of remaining.values()) lost += left;
  const exact = want.length === got.length && want.every((key, i) => key === got[i]);
  return { exact, lost, duplicated };
}
