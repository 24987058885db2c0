import { sampleArguments } from '../../scripts/conformance/sample-arguments';

describe('sampleArguments', () => {
  test('fills every required property with a value of its type, and leaves optional ones out', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'number' },
        n: { type: 'integer' },
        s: { type: 'string' },
        b: { type: 'boolean' },
        list: { type: 'array', items: { type: 'string' } },
        nothing: { type: 'null' },
        optional: { type: 'string' },
      },
      required: ['a', 'n', 's', 'b', 'list', 'nothing'],
    };
    expect(sampleArguments(schema)).toEqual({ a: 1, n: 1, s: 'conformance', b: true, list: [], nothing: null });
  });

  test("prefers the schema's own default, const and first enum value, and a number's minimum", () => {
    const schema = {
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        mode: { const: 'fast' },
        count: { type: 'integer', default: 7 },
        page: { type: 'integer', minimum: 3 },
      },
      required: ['unit', 'mode', 'count', 'page'],
    };
    expect(sampleArguments(schema)).toEqual({ unit: 'celsius', mode: 'fast', count: 7, page: 3 });
  });

  test('follows nested objects and type lists', () => {
    const schema = {
      type: 'object',
      properties: {
        where: { type: 'object', properties: { city: { type: ['string', 'null'] } }, required: ['city'] },
      },
      required: ['where'],
    };
    expect(sampleArguments(schema)).toEqual({ where: { city: 'conformance' } });
  });

  test('stops at a bounded depth on a schema that nests without end', () => {
    const node: Record<string, unknown> = { type: 'object', required: ['next'] };
    node.properties = { next: node };
    let depth = 0;
    for (let value: unknown = sampleArguments(node); typeof value === 'object' && value !== null && 'next' in value; depth++) {
      value = value.next;
    }
    expect(depth).toBeGreaterThan(0);
    expect(depth).toBeLessThan(10);
  });

  test('never throws on schemas that are not object schemas', () => {
    for (const schema of [undefined, null, 'x', 3, [], { properties: 'no' }, { required: 'a' }, { required: [1, 'a'] }]) {
      expect(() => sampleArguments(schema)).not.toThrow();
    }
    expect(sampleArguments({ required: ['a'] })).toEqual({ a: null });
    expect(sampleArguments(undefined)).toEqual({});
  });
});
