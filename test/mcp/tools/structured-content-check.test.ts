import { checkStructuredContent } from '../../../src/mcp/tools/structured-content-check';

const SCHEMA = { type: 'object', properties: { temperature: { type: 'number' }, conditions: { type: 'string' } }, required: ['temperature', 'conditions'] };

describe('checkStructuredContent', () => {
  test('a result that matches the schema, or a tool without one, is fine', () => {
    expect(checkStructuredContent(SCHEMA, { structuredContent: { temperature: 22.5, conditions: 'cloudy' } })).toEqual({ kind: 'ok' });
    expect(checkStructuredContent(undefined, { structuredContent: 'anything' })).toEqual({ kind: 'ok' });
    expect(checkStructuredContent(undefined, {})).toEqual({ kind: 'ok' });
  });

  test('a mismatch names what is wrong, in terms of structuredContent', () => {
    const check = checkStructuredContent(SCHEMA, { structuredContent: { temperature: 'hot' } });
    expect(check).toEqual({ kind: 'mismatch', detail: expect.stringMatching(/^structuredContent does not match the tool's outputSchema: /) });
    if (check.kind === 'mismatch') {
      expect(check.detail).toContain("structuredContent must have required property 'conditions'");
      expect(check.detail).toContain('structuredContent/temperature must be number');
    }
  });

  test('a declared schema needs structuredContent, unless the result is an error', () => {
    expect(checkStructuredContent(SCHEMA, { content: [] } as { structuredContent?: unknown })).toEqual({
      kind: 'mismatch',
      detail: 'the tool declares an outputSchema but its result has no structuredContent',
    });
    expect(checkStructuredContent(SCHEMA, { isError: true })).toEqual({ kind: 'ok' });
    expect(checkStructuredContent(SCHEMA, { isError: true, structuredContent: { temperature: 'hot' } })).toEqual({ kind: 'ok' });
  });

  test('any JSON value may be structured content (2026-07-28): an array schema is checked too', () => {
    const list = { type: 'array', items: { type: 'string' } };
    expect(checkStructuredContent(list, { structuredContent: ['a', 'b'] })).toEqual({ kind: 'ok' });
    expect(checkStructuredContent(list, { structuredContent: ['a', 2] })).toMatchObject({ kind: 'mismatch' });
  });

  test('2020-12 keywords ($defs, $anchor, if/then) are understood', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { unit: { $anchor: 'unit', enum: ['C', 'F'] } },
      properties: { unit: { $ref: '#unit' }, t: { type: 'number' } },
      if: { properties: { unit: { const: 'C' } } },
      then: { properties: { t: { maximum: 60 } } },
    };
    expect(checkStructuredContent(schema, { structuredContent: { unit: 'C', t: 21 } })).toEqual({ kind: 'ok' });
    expect(checkStructuredContent(schema, { structuredContent: { unit: 'K', t: 21 } })).toMatchObject({ kind: 'mismatch' });
    expect(checkStructuredContent(schema, { structuredContent: { unit: 'C', t: 99 } })).toMatchObject({ kind: 'mismatch' });
  });

  test('a schema that cannot be used leaves the result unchecked: never fetched, never a failure', () => {
    expect(checkStructuredContent({ $ref: 'https://schemas.invalid/x.json' }, { structuredContent: { t: 1 } })).toEqual({
      kind: 'unchecked',
      why: expect.stringMatching(/^its outputSchema cannot be used \(/),
    });
    expect(checkStructuredContent('not a schema', { structuredContent: 1 })).toEqual({ kind: 'unchecked', why: 'its outputSchema is not a JSON Schema object' });
  });
});
