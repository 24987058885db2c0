/**
 * `chat` asks inline when a server asks for input in the middle of a tool call (src/input):
 *
 *   in_…: server "travel" asks: Where to?
 *   city · City — where you fly to (text, required):
 *   seat (one of window, aisle) [window]:
 *
 * A form is asked field by field: an empty answer takes the field's default (SEP-1034), numbers,
 * yes/no and comma-separated lists are read as such, and a value the schema refuses is asked again
 * with the reason. A URL is printed, never opened ("Done? [y/N/decline]"); a sampling request asks
 * "Allow Claude to answer? [y/N]". `!decline` or `!cancel` at any question refuses the request.
 * While the turn runs the conversation's status is asked every second, once for this prompt and the
 * approval prompt together (turn-prompts.ts), which take turns at the terminal. A request answered
 * elsewhere meanwhile (`mcp-host respond`, the policy, the input timeout) is said and passed over.
 */
import type { Client } from '@temporalio/client';
import type * as readline from 'node:readline/promises';
import type { TurnResult } from '../conversation/types';
import { elicitationContentProblem, formFields, withElicitationDefaults } from '../input/elicitation-schema';
import { pendingInputLine, type PendingInput } from '../input/input-requests';
import { answeredMeanwhile, respondToInput, type InputResponse } from './input-requests';
import { fieldChoices, renderInputAnswer } from './render-inputs';
import { PROMPT_POLL_MS, promptWhileTurnRuns, type StatusPrompt } from './turn-prompts';

type Schema = Record<string, unknown>;

/** Asks one question and resolves with the typed line (rejects when the question is withdrawn). */
export type Ask = (question: string) => Promise<string>;


/** `!decline` / `!cancel`, typed at any question, or undefined. */
export function refusalTyped(line: string): 'decline' | 'cancel' | undefined {
  const text = line.trim().toLowerCase();
  return text === '!decline' ? 'decline' : text === '!cancel' ? 'cancel' : undefined;
}

/** A value as the user reads and types it: text bare, yes/no, lists comma-separated. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.map(shown).join(', ');
  return JSON.stringify(value);
}

/** What a field takes, for its question: `integer, 1 to 9`, `one of window, aisle`, `yes/no`. */
function fieldKind(field: Schema): string {
  const choices = fieldChoices(field)?.map(shown).join(', ');
  if (field.type === 'array') return choices !== undefined ? `comma-separated, any of ${choices}` : 'comma-separated';
  if (choices !== undefined) return `one of ${choices}`;
  if (field.type === 'boolean') return 'yes/no';
  if (field.type === 'number' || field.type === 'integer') {
    const min = typeof field.minimum === 'number' ? field.minimum : undefined;
    const max = typeof field.maximum === 'number' ? field.maximum : undefined;
    const range = min !== undefined && max !== undefined ? `, ${min} to ${max}` : min !== undefined ? `, at least ${min}` : max !== undefined ? `, at most ${max}` : '';
    return `${field.type}${range}`;
  }
  if (field.format === 'date') return 'date, YYYY-MM-DD';
  return typeof field.format === 'string' ? field.format : 'text';
}

/** The question for one form field: `seat · Seat — by the window? (one of window, aisle, required) [window]: `. */
export function fieldQuestion(name: string, field: Schema, required: boolean): string {
  const title = typeof field.title === 'string' && field.title !== '' && field.title !== name ? ` · ${field.title}` : '';
  const description = typeof field.description === 'string' && field.description !== '' ? ` — ${field.description}` : '';
  const fallback = field.default !== undefined ? ` [${shown(field.default)}]` : '';
  return `${name}${title}${description} (${fieldKind(field)}${required ? ', required' : ''})${fallback}: `;
}

/** An allowed value the text names, ignoring case when only one matches so; else the text itself. */
function chosen(choices: unknown[] | undefined, text: string): unknown {
  if (choices === undefined || choices.includes(text)) return text;
  const matches = choices.filter((c) => typeof c === 'string' && c.toLowerCase() === text.toLowerCase());
  return matches.length === 1 ? matches[0] : text;
}

/**
 * A typed answer as the field's value: undefined for an empty answer (the default, or left out);
 * a number for a number field, true/false for yes/no, a list for comma-separated values. Text that
 * is none of these is kept as typed, so the schema's check says what is wrong with it.
 */
export function parseFieldAnswer(field: Schema, line: string): unknown {
  const text = line.trim();
  if (text === '') return undefined;
  if (field.type === 'boolean') {
    if (/^(y|yes|true)$/i.test(text)) return true;
    if (/^(n|no|false)$/i.test(text)) return false;
    return text;
  }
  if (field.type === 'number' || field.type === 'integer') {
    return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : text;
  }
  const choices = fieldChoices(field);
  if (field.type === 'array') {
    return text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')
      .map((item) => chosen(choices, item));
  }
  return chosen(choices, text);
}

/** Why `value` cannot be field `name`'s (the workflow's own check, naming the field), or undefined. */
export function fieldValueProblem(name: string, field: Schema, required: boolean, value: unknown): string | undefined {
  const schema = { type: 'object', properties: { [name]: field }, required: required ? [name] : [] };
  return elicitationContentProblem(schema, value === undefined ? {} : { [name]: value });
}

/** Asks a form field by field, each again until its value fits; the defaults fill what was left empty. */
async function askForm(input: PendingInput, ask: Ask, print: (line: string) => void): Promise<InputResponse> {
  const fields = formFields(input.requestedSchema);
  if (fields.length === 0) {
    const line = await ask('Accept? [y/N] ');
    const refusal = refusalTyped(line);
    return refusal !== undefined ? { action: refusal } : /^(y|yes)$/i.test(line.trim()) ? { action: 'accept', content: {} } : { action: 'decline' };
  }
  print('  (field by field; Enter takes the [default]; !decline or !cancel refuses the form)');
  const content: Record<string, unknown> = {};
  for (const { name, field, required } of fields) {
    for (;;) {
      const line = await ask(fieldQuestion(name, field, required));
      const refusal = refusalTyped(line);
      if (refusal !== undefined) return { action: refusal };
      const value = parseFieldAnswer(field, line);
      const problem = fieldValueProblem(name, field, required, value);
      if (problem === undefined) {
        if (value !== undefined) content[name] = value;
        break;
      }
      print(`  ${problem}`);
    }
  }
  return { action: 'accept', content: withElicitationDefaults(input.requestedSchema, content) };
}

/** Prints the URL (the host never opens it) and asks whether the visit is done. */
async function askUrl(input: PendingInput, ask: Ask, print: (line: string) => void): Promise<InputResponse> {
  print(`  open it yourself (the host never opens it): ${input.url ?? '(no URL given)'}`);
  const line = (await ask('Done? [y/N/decline] ')).trim();
  const refusal = refusalTyped(line);
  if (refusal !== undefined) return { action: refusal };
  if (/^(y|yes)$/i.test(line)) return { action: 'accept' };
  return /^(d|decline)$/i.test(line) ? { action: 'decline' } : { action: 'cancel' };
}

/** Asks leave for Claude to answer a server's completion request: anything but yes declines it. */
async function askSampling(ask: Ask): Promise<InputResponse> {
  const line = await ask('Allow Claude to answer? [y/N] ');
  const refusal = refusalTyped(line);
  if (refusal !== undefined) return { action: refusal };
  return /^(y|yes)$/i.test(line.trim()) ? { action: 'accept' } : { action: 'decline' };
}

/**
 * Asks the user about one waiting request (its line first, via `print`, then the questions on
 * `ask`); resolves with the response to send. Rejects when `ask` does (the question withdrawn).
 */
export async function askInput(input: PendingInput, ask: Ask, print: (line: string) => void = console.log): Promise<InputResponse> {
  print(pendingInputLine(input));
  if (input.kind === 'sampling') return askSampling(ask);
  return input.mode === 'url' ? askUrl(input, ask, print) : askForm(input, ask, print);
}

/**
 * The input prompt of a running turn (see turn-prompts.ts): asks on `rl` about each server's request
 * of conversation `id` that waits for input, once, and sends the answer.
 */
export function inputPrompt(client: Client, rl: readline.Interface, id: string, print: (line: string) => void = console.log): StatusPrompt {
  const asked = new Set<string>();
  return async (status, ended) => {
    const ask: Ask = (question) => rl.question(question, { signal: ended });
    // Statuses of workers before servers' input requests have no such field.
    for (const input of status.pendingInputs ?? []) {
      if (asked.has(input.requestId) || ended.aborted) continue;
      asked.add(input.requestId);
      let response: InputResponse;
      try {
        response = await askInput(input, ask, print);
      } catch {
        return; // the turn ended while asking, or stdin closed
      }
      try {
        print(renderInputAnswer(response.action, await respondToInput(client, id, { requestId: input.requestId, ...response })));
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        // Answered elsewhere meanwhile (another terminal, `mcp-host respond`, the timeout): say so and go on.
        const meanwhile = answeredMeanwhile(message);
        print(meanwhile === undefined ? `mcp-host: ${message}` : `${input.requestId} was answered elsewhere meanwhile${meanwhile === 'gone' ? '' : ` (${meanwhile})`}; going on`);
      }
    }
  };
}

/**
 * Waits for `turn` (the answer of a turn of conversation `id`), asking on `rl` about each server's
 * request that waits for input meanwhile and sending the answer; resolves with the turn's answer.
 */
export function answerWithInputs<T extends TurnResult | undefined>(
  client: Client,
  rl: readline.Interface,
  id: string,
  turn: Promise<T>,
  print: (line: string) => void = console.log,
  pollMs = PROMPT_POLL_MS,
): Promise<T> {
  return promptWhileTurnRuns(client, id, turn, [inputPrompt(client, rl, id, print)], pollMs);
}
