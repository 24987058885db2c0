/**
 * Checks a tool result's `structuredContent` against the tool's `outputSchema`, as the MCP spec
 * asks of clients ("Clients SHOULD validate structured results against this schema"; servers
 * "MUST provide structured results that conform"). A result that breaks its own schema becomes a
 * tool error Claude sees (`callTool`), never a failed activity: the tool has run.
 *
 * Schemas are compiled with the SDK v2's Ajv validator (JSON Schema 2020-12 by default, 2019-09
 * and draft-07/06 when declared), once per listed schema object. It never fetches anything: a
 * `$ref` to a network URI does not compile, and such a schema (or any other that does not compile)
 * leaves the result unchecked rather than failing a call over the server's schema.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';

/** The outcome of checking one result. */
export type StructuredContentCheck =
  | { kind: 'ok' }
  /** The result breaks the schema: `detail` says how, naming `structuredContent` paths. */
  | { kind: 'mismatch'; detail: string }
  /** The schema could not be used; the result passes unchecked. */
  | { kind: 'unchecked'; why: string };

type Compiled = { validate: (value: unknown) => { valid: boolean; errorMessage?: string | undefined } } | { error: string };

const validator = new AjvJsonSchemaValidator();
/** Compiled schemas by the listed schema object: a new listing brings new objects. */
const compiled = new WeakMap<object, Compiled>();

function compile(schema: object): Compiled {
  let entry = compiled.get(schema);
  if (entry === undefined) {
    try {
      const validate = validator.getValidator(schema);
      entry = { validate: (value) => validate(value) };
    } catch (err) {
      entry = { error: err instanceof Error ? err.message : String(err) };
    }
    compiled.set(schema, entry);
  }
  return entry;
}

/**
 * Checks `result` against `outputSchema` (undefined: the tool declares none). Results with
 * `isError: true` are not checked (an error need not carry the structured output). Never throws.
 */
export function checkStructuredContent(outputSchema: unknown, result: { structuredContent?: unknown; isError?: unknown }): StructuredContentCheck {
  if (outputSchema === undefined || result.isError === true) return { kind: 'ok' };
  if (typeof outputSchema !== 'object' || outputSchema === null || Array.isArray(outputSchema)) {
    return { kind: 'unchecked', why: 'its outputSchema is not a JSON Schema object' };
  }
  const check = compile(outputSchema);
  if ('error' in check) return { kind: 'unchecked', why: `its outputSchema cannot be used (${check.error})` };
  if (result.structuredContent === undefined) {
    return { kind: 'mismatch', detail: 'the tool declares an outputSchema but its result has no structuredContent' };
  }
  const outcome = check.validate(result.structuredContent);
  if (outcome.valid) return { kind: 'ok' };
  // Ajv names the value `data`: say which value it is.
  const detail = (outcome.errorMessage ?? 'invalid').replace(/\bdata(?=[/ ]|$)/g, 'structuredContent');
  return { kind: 'mismatch', detail: `structuredContent does not match the tool's outputSchema: ${detail}` };
}
