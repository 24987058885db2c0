/**
 * Arguments for a tool call made without a model: the conformance client calls every listed tool,
 * and nobody is there to decide what to pass, so the arguments are derived from the tool's input
 * schema instead.
 */

/** How deep nested object schemas are followed; tool schemas can be recursive through `$ref`. */
const MAX_DEPTH = 4;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema's own type, or the first one of a type list (`["string", "null"]`). */
function typeOf(schema: Record<string, unknown>): unknown {
  const type = schema.type;
  return Array.isArray(type) ? (type as unknown[])[0] : type;
}

function sampleValue(schema: unknown, depth: number): unknown {
  if (!isRecord(schema)) return null;
  // A value the server itself proposes is the one most likely to be accepted.
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return (schema.enum as unknown[])[0];
  switch (typeOf(schema)) {
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      return 'conformance';
    case 'array':
      return [];
    case 'null':
      return null;
    case 'object':
      return depth < MAX_DEPTH ? sampleArgumentsAt(schema, depth + 1) : {};
    default:
      return null;
  }
}

function sampleArgumentsAt(schema: Record<string, unknown>, depth: number): Record<string, unknown> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required: unknown[] = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const args: Record<string, unknown> = {};
  // Only required properties: an optional one left out cannot make the call invalid.
  for (const name of required) {
    if (typeof name === 'string') args[name] = sampleValue(properties[name], depth);
  }
  return args;
}

/**
 * Arguments that satisfy `schema`'s required properties: each takes the property's `default`,
 * `const` or first `enum` value when it has one, else a fixed value of its type (1, `true`,
 * `"conformance"`, `[]`, a nested sample object). Never throws, whatever the schema.
 */
export function sampleArguments(schema: unknown): Record<string, unknown> {
  return isRecord(schema) ? sampleArgumentsAt(schema, 0) : {};
}
