/**
 * The form of an elicitation (MCP `requestedSchema`): a flat JSON Schema object whose properties are
 * strings (with `minLength`/`maxLength`, `format` email/uri/date/date-time, single-select `enum` or
 * `oneOf` of `const`s), numbers and integers (`minimum`/`maximum`), booleans, and multi-select
 * arrays of enum values (`minItems`/`maxItems`). An answer is checked against it field by field,
 * and the schema's `default`s fill the fields the answer leaves out (SEP-1034). Pure: the workflow
 * sandbox imports it.
 */

type Schema = Record<string, unknown>;

/** The form's fields, in the schema's order. */
export function formFields(schema: Schema | undefined): Array<{ name: string; field: Schema; required: boolean }> {
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const required = Array.isArray(schema?.required) ? (schema.required as unknown[]) : [];
  return Object.entries(properties as Record<string, unknown>)
    .filter((entry): entry is [string, Schema] => typeof entry[1] === 'object' && entry[1] !== null)
    .map(([name, field]) => ({ name, field, required: required.includes(name) }));
}

/** The values a single- or multi-select field allows, or undefined for a free field. */
export function allowedValues(field: Schema): unknown[] | undefined {
  if (Array.isArray(field.enum)) return field.enum as unknown[];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = field[key];
    if (Array.isArray(options)) return options.map((o) => (typeof o === 'object' && o !== null ? (o as Schema).const : undefined));
  }
  return undefined;
}

/** The content with the schema's defaults in the fields it leaves out (SEP-1034). */
export function withElicitationDefaults(schema: Schema | undefined, content: Record<string, unknown>): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...content };
  for (const { name, field } of formFields(schema)) {
    const fallback: unknown = field.default;
    if (filled[name] === undefined && fallback !== undefined) filled[name] = fallback;
  }
  return filled;
}

const FORMATS: Record<string, (value: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  uri: (v) => /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/.test(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
};

/** Why one field's value breaks its schema, or undefined. */
function fieldProblem(field: Schema, value: unknown): string | undefined {
  const type = field.type;
  const shown = JSON.stringify(value);
  if (type === 'array') {
    if (!Array.isArray(value)) return `must be a list, not ${shown}`;
    const items = typeof field.items === 'object' && field.items !== null ? allowedValues(field.items as Schema) : undefined;
    const bad: unknown = items === undefined ? undefined : (value as unknown[]).find((v) => !items.includes(v));
    if (bad !== undefined) return `${JSON.stringify(bad)} is not one of ${items?.map((v) => JSON.stringify(v)).join(', ')}`;
    if (typeof field.minItems === 'number' && value.length < field.minItems) return `must have at least ${field.minItems} item(s)`;
    if (typeof field.maxItems === 'number' && value.length > field.maxItems) return `must have at most ${field.maxItems} item(s)`;
    return undefined;
  }
  if (type === 'boolean') return typeof value === 'boolean' ? undefined : `must be true or false, not ${shown}`;
  if (type === 'number' || type === 'integer') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a number, not ${shown}`;
    if (type === 'integer' && !Number.isInteger(value)) return `must be an integer, not ${shown}`;
    if (typeof field.minimum === 'number' && value < field.minimum) return `must be at least ${field.minimum}, not ${shown}`;
    if (typeof field.maximum === 'number' && value > field.maximum) return `must be at most ${field.maximum}, not ${shown}`;
    return undefined;
  }
  // A string field (the type may be left out of an enum).
  if (typeof value !== 'string') return `must be text, not ${shown}`;
  const allowed = allowedValues(field);
  if (allowed !== undefined && !allowed.includes(value)) return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, not ${shown}`;
  const chars = Array.from(value).length;
  if (typeof field.minLength === 'number' && chars < field.minLength) return `must be at least ${field.minLength} characters long`;
  if (typeof field.maxLength === 'number' && chars > field.maxLength) return `must be at most ${field.maxLength} characters long`;
  const check = typeof field.format === 'string' ? FORMATS[field.format] : undefined;
  if (check !== undefined && !check(value)) return `must be ${field.format === 'email' ? 'an' : 'a'} ${String(field.format)}, not ${shown}`;
  return undefined;
}

/**
 * Why an accepted form's content cannot be sent, naming the field (`field "age": must be an
 * integer, not "x"`), or undefined when it fits. Fields the schema does not have are refused;
 * missing required fields are refused unless the schema gives them a default.
 */
export function elicitationContentProblem(schema: Schema | undefined, content: Record<string, unknown>): string | undefined {
  const fields = formFields(schema);
  const names = new Set(fields.map((f) => f.name));
  const unknown = Object.keys(content).filter((k) => !names.has(k));
  if (unknown.length > 0) {
    return `field ${JSON.stringify(unknown[0])} is not in the form; its fields: ${fields.map((f) => f.name).join(', ') || '(none)'}`;
  }
  for (const { name, field, required } of fields) {
    const value = content[name];
    if (value === undefined || value === null) {
      if (required && field.default === undefined) return `field ${JSON.stringify(name)} is required`;
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem !== undefined) return `field ${JSON.stringify(name)}: ${problem}`;
  }
  return undefined;
}
