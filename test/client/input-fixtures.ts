/** Waiting input requests as the status query shows them, for the client's input tests. */
import type { PendingInput } from '../../src/input/input-requests';

const at = { tool: 'book_flight', server: 'travel', since: '2026-12-03T14:00:00.123Z', turnId: 3 };

/** A form: a required text, an integer with a range and default, a single select, a multi-select, a yes/no. */
export const formInput: PendingInput = {
  ...at,
  requestId: 'in_form',
  toolUseId: 'toolu_f',
  kind: 'elicitation',
  mode: 'form',
  message: 'Who flies?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', description: 'as on the passport', minLength: 2 },
      age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
      seat: { type: 'string', enum: ['window', 'aisle'], default: 'window' },
      meals: { type: 'array', items: { enum: ['veg', 'fish', 'meat'] } },
      insured: { type: 'boolean' },
    },
    required: ['name', 'age'],
  },
};

/** A URL visit. */
export const urlInput: PendingInput = {
  ...at,
  requestId: 'in_url',
  toolUseId: 'toolu_u',
  kind: 'elicitation',
  mode: 'url',
  message: 'Sign in to pay',
  url: 'https://pay.example/session/42',
  elicitationId: 'el_1',
};

/** Leave to run a completion. */
export const samplingInput: PendingInput = {
  ...at,
  requestId: 'in_sample',
  toolUseId: 'toolu_s',
  kind: 'sampling',
  message: 'a completion of 1 message, at most 200 tokens: Summarize the fare rules',
};
