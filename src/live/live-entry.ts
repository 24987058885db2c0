/**
 * One entry of a conversation's live stream (`mcp-host:live:{workflowId}`): a piece of a streaming
 * Claude call's answer or thinking, with the call it belongs to and where in the text it goes, and
 * its codec to and from a Redis stream entry's fields (all strings).
 *
 * With payload encryption on (`MCP_HOST_ENCRYPTION_KEY`, src/temporal/encryption-keys.ts), the
 * piece's text is sealed with AES-256-GCM under the current payload key: the entry holds the key's
 * id and the ciphertext, never the text, so the broker never holds plaintext. The call's ids, the
 * attempt, the kind and the offset stay readable (a follower routes by them) and are authenticated
 * with the ciphertext, as is the conversation's id: a sealed piece moved to another call, place or
 * stream does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptionKeyring } from '../temporal/encryption-keys';

/** What a piece is part of: the answer's text or Claude's thinking. */
export type LiveEntryKind = 'text' | 'thinking';

/** A piece of a call's answer or thinking, as published. */
export interface LiveEntry {
  /** The run of the conversation (with `activityId` it names the call, as followers' `callId` does). */
  runId: string;
  /** The `callClaude` activity's id. */
  activityId: string;
  /** Temporal's attempt number: a retried call streams its text again from the start. */
  attempt: number;
  kind: LiveEntryKind;
  /** Characters (UTF-16 code units) of the text before this piece. */
  offset: number;
  /** The piece. */
  delta: string;
}

/** A stream entry's fields, flat as XADD takes them and XRANGE gives them back: name, value, name, value… */
export type EntryFields = string[];

/** The cipher named in a sealed entry. */
const CIPHER = 'AES-256-GCM';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Authenticated with the ciphertext: everything that says where the piece goes. */
function additionalData(workflowId: string, entry: Omit<LiveEntry, 'delta'>, keyId: string): Buffer {
  return Buffer.from(JSON.stringify(['durable-mcp-host live', CIPHER, keyId, workflowId, entry.runId, entry.activityId, entry.attempt, entry.kind, entry.offset]), 'utf8');
}

/**
 * The fields of `entry` in the stream of conversation `workflowId`: the piece sealed with the
 * keyring's current key when there is one, else as it is.
 */
export function encodeEntry(workflowId: string, entry: LiveEntry, keyring: EncryptionKeyring): EntryFields {
  const head = ['runId', entry.runId, 'activityId', entry.activityId, 'attempt', String(entry.attempt), 'kind', entry.kind, 'offset', String(entry.offset)];
  const key = keyring.current;
  if (!key) return [...head, 'delta', entry.delta];
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(workflowId, entry, key.id));
  const sealed = Buffer.concat([iv, cipher.update(entry.delta, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return [...head, 'cipher', CIPHER, 'keyId', key.id, 'sealed', sealed.toString('base64')];
}

function fieldMap(fields: EntryFields): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i] ?? '', fields[i + 1] ?? '');
  return map;
}

/**
 * The entry the fields hold, or undefined for anything this cannot read: another shape, a sealed
 * piece whose key id the keyring lacks, or one that does not open (changed, or moved).
 */
export function decodeEntry(workflowId: string, fields: EntryFields, keyring: EncryptionKeyring): LiveEntry | undefined {
  const map = fieldMap(fields);
  const runId = map.get('runId');
  const activityId = map.get('activityId');
  const attempt = Number(map.get('attempt'));
  const kind = map.get('kind');
  const offset = Number(map.get('offset'));
  if (runId === undefined || activityId === undefined || (kind !== 'text' && kind !== 'thinking')) return undefined;
  if (!Number.isInteger(attempt) || attempt < 1 || !Number.isInteger(offset) || offset < 0) return undefined;
  const where: Omit<LiveEntry, 'delta'> = { runId, activityId, attempt, kind, offset };
  const plain = map.get('delta');
  if (plain !== undefined) return { ...where, delta: plain };
  const keyId = map.get('keyId');
  const sealed = map.get('sealed');
  if (map.get('cipher') !== CIPHER || keyId === undefined || sealed === undefined) return undefined;
  const key = keyring.keys.get(keyId);
  if (!key) return undefined;
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(workflowId, where, keyId));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const delta = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    return { ...where, delta };
  } catch {
    return undefined;
  }
}
