import { encodeHeaderValue, mcpParamHeaders, scanHeaderParams } from '../../../src/mcp/tools/x-mcp-header';

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'object', properties, ...extra });

describe('scanHeaderParams (SEP-2243 x-mcp-header marks)', () => {
  test('finds marks on string, integer and boolean properties, nested through properties only', () => {
    const scan = scanHeaderParams(
      object({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        options: object({ priority: { type: 'integer', 'x-mcp-header': 'Priority' }, dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' } }),
        query: { type: 'string' },
      }),
    );
    expect(scan).toEqual({
      ok: true,
      params: [
        { path: ['region'], name: 'Region', type: 'string' },
        { path: ['options', 'priority'], name: 'Priority', type: 'integer' },
        { path: ['options', 'dry'], name: 'Dry-Run', type: 'boolean' },
      ],
    });
    expect(scanHeaderParams(object({}))).toEqual({ ok: true, params: [] });
    expect(scanHeaderParams(undefined)).toEqual({ ok: true, params: [] });
  });

  test('a property named x-mcp-header is a property, not a mark', () => {
    expect(scanHeaderParams(object({ 'x-mcp-header': { type: 'string' } }))).toEqual({ ok: true, params: [] });
  });

  test.each([
    ['an empty name', object({ a: { type: 'string', 'x-mcp-header': '' } }), /non-empty string/],
    ['a name that is not a string', object({ a: { type: 'string', 'x-mcp-header': 7 } }), /non-empty string/],
    ['a space in the name', object({ a: { type: 'string', 'x-mcp-header': 'My Region' } }), /not an HTTP token/],
    ['a colon in the name', object({ a: { type: 'string', 'x-mcp-header': 'Region:1' } }), /not an HTTP token/],
    ['a non-ASCII name', object({ a: { type: 'string', 'x-mcp-header': 'Régión' } }), /not an HTTP token/],
    ['a control character in the name', object({ a: { type: 'string', 'x-mcp-header': 'Re\ngion' } }), /not an HTTP token/],
    ['a number property', object({ a: { type: 'number', 'x-mcp-header': 'A' } }), /string, integer or boolean/],
    ['an object property', object({ a: { type: 'object', 'x-mcp-header': 'A' } }), /string, integer or boolean/],
    ['an array property', object({ a: { type: 'array', 'x-mcp-header': 'A' } }), /string, integer or boolean/],
    ['a null property', object({ a: { type: 'null', 'x-mcp-header': 'A' } }), /string, integer or boolean/],
    ['a property without a type', object({ a: { 'x-mcp-header': 'A' } }), /string, integer or boolean/],
    ['a type list', object({ a: { type: ['string', 'null'], 'x-mcp-header': 'A' } }), /string, integer or boolean/],
    ['the same name twice', object({ a: { type: 'string', 'x-mcp-header': 'A' }, b: { type: 'string', 'x-mcp-header': 'A' } }), /used twice/],
    ['names differing in case only', object({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } }), /used twice/],
    ['the root', { type: 'object', 'x-mcp-header': 'Root' }, /reached from the root through "properties" alone/],
    ['items', object({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } }), /reached from the root/],
    ['additionalProperties', object({}, { additionalProperties: { type: 'string', 'x-mcp-header': 'A' } }), /reached from the root/],
    ['anyOf', object({}, { anyOf: [object({ a: { type: 'string', 'x-mcp-header': 'A' } })] }), /reached from the root/],
    ['then', object({}, { if: object({}), then: object({ a: { type: 'string', 'x-mcp-header': 'A' } }) }), /reached from the root/],
    ['$defs', object({ a: { $ref: '#/$defs/r' } }, { $defs: { r: { type: 'string', 'x-mcp-header': 'A' } } }), /reached from the root/],
  ])('refuses %s', (_what, schema, problem) => {
    const scan = scanHeaderParams(schema);
    expect(scan.ok).toBe(false);
    if (!scan.ok) expect(scan.problem).toMatch(problem);
  });
});

describe('encodeHeaderValue', () => {
  // The spec's encoding examples (basic/transports/streamable-http, "Value Encoding").
  test.each([
    ['us-west1', 'us-west1'],
    ['us west 1', 'us west 1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
    ['\tindented', `=?base64?${Buffer.from('\tindented').toString('base64')}?=`],
    ['', '=?base64??='],
  ])('%j → %j', (value, header) => {
    expect(encodeHeaderValue(value)).toBe(header);
  });
});

describe('mcpParamHeaders', () => {
  const scan = scanHeaderParams(
    object({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      nested: object({ zone: { type: 'string', 'x-mcp-header': 'Zone' } }),
    }),
  );
  const params = scan.ok ? scan.params : [];

  test('mirrors each marked argument in its string form, nested ones by their path', () => {
    expect(mcpParamHeaders(params, { region: 'eu', priority: 42, verbose: false, nested: { zone: 'Zürich' }, query: 'x' })).toEqual({
      'Mcp-Param-Region': 'eu',
      'Mcp-Param-Priority': '42',
      'Mcp-Param-Verbose': 'false',
      'Mcp-Param-Zone': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
    });
  });

  test('a null, absent or non-primitive value, or an integer beyond the safe range, sends no header', () => {
    expect(mcpParamHeaders(params, { region: null, priority: 2 ** 60, verbose: { yes: true } })).toEqual({});
    expect(mcpParamHeaders(params, {})).toEqual({});
  });
});
