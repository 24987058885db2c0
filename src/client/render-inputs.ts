/**
 * Servers' requests for input (src/input: a form, a URL visit, leave to sample) as the CLI shows
 * them: `mcp-host pending` lists each with its form's fields or its URL, `respond` and chat say what
 * was answered. Pure text: approvals.ts, input-requests.ts and input-prompt.ts share it.
 */
import { allowedValues, formFields } from '../input/elicitation-schema';
import type { InputAction, InputResponseAnswer, PendingInput } from '../input/input-requests';

type Schema = Record<string, unknown>;

/** What a request asks for: `elicitation/form`, `elicitation/url` or `sampling`. */
export function inputKindLabel(input: Pick<PendingInput, 'kind' | 'mode'>): string {
  return input.kind === 'sampling' ? 'sampling' : `elicitation/${input.mode ?? 'form'}`;
}

/** A field's type as the schema says it (`string`, `integer`, `list`), with its string format. */
export function fieldType(field: Schema): string {
  if (field.type === 'array') return 'list';
  const type = typeof field.type === 'string' ? field.type : 'string';
  return typeof field.format === 'string' ? `${type} (${field.format})` : type;
}

/** The values a single-select field allows, or the items a multi-select one takes, or undefined. */
export function fieldChoices(field: Schema): unknown[] | undefined {
  if (field.type === 'array') return typeof field.items === 'object' && field.items !== null ? allowedValues(field.items as Schema) : undefined;
  return allowedValues(field);
}

/** One form field for `pending`: `age: integer, required, default 30 — Your age`. */
export function formFieldLine(name: string, field: Schema, required: boolean): string {
  const choices = fieldChoices(field);
  const about = [field.title, field.description].filter((t): t is string => typeof t === 'string' && t !== '' && t !== name);
  return [
    `${name}: ${fieldType(field)}`,
    ...(required ? ['required'] : []),
    ...(choices !== undefined ? [`${field.type === 'array' ? 'any of' : 'one of'} ${choices.map((v) => JSON.stringify(v)).join(', ')}`] : []),
    ...(field.default !== undefined ? [`default ${JSON.stringify(field.default)}`] : []),
  ]
    .join(', ')
    .concat(about.length > 0 ? ` — ${about.join(': ')}` : '');
}

/**
 * A waiting request for `pending`, first line then details: the id, server, kind/mode, tool call,
 * since when and message; then the form's fields, or the URL to visit.
 */
export function pendingInputLines(input: PendingInput): string[] {
  const since = input.since.replace(/\.\d+Z$/, 'Z');
  const head = `${input.requestId} · ${input.server} · ${inputKindLabel(input)} (${input.tool}, ${input.toolUseId}, since ${since}): ${input.message}`;
  if (input.kind === 'sampling') return [head];
  if (input.mode === 'url') return [head, `  url: ${input.url ?? '(none given)'}`];
  const fields = formFields(input.requestedSchema);
  if (fields.length === 0) return [head, '  (a form without fields: accept or decline)'];
  return [head, ...fields.map(({ name, field, required }) => `  ${formFieldLine(name, field, required)}`)];
}

const DONE: Record<InputAction, string> = { accept: 'accepted', decline: 'declined', cancel: 'cancelled' };

/** What a respond did, in one line: `accepted in_… (elicitation/form of travel); 1 still waiting` (the count always shown). */
export function renderInputAnswer(action: InputAction, answer: InputResponseAnswer): string {
  const { answered, stillWaiting } = answer;
  return `${DONE[action]} ${answered.requestId} (${inputKindLabel(answered)} of ${answered.server}); ${stillWaiting} still waiting`;
}
