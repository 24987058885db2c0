import { elicitationContentProblem, withElicitationDefaults } from '../../src/input/elicitation-schema';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    size: { type: 'integer', minimum: 1, maximum: 12, default: 2 },
    price: { type: 'number' },
    vip: { type: 'boolean', default: false },
    seating: { type: 'string', enum: ['inside', 'terrace'] },
    color: { type: 'string', oneOf: [{ const: 'red', title: 'Red' }, { const: 'blue', title: 'Blue' }] },
    extras: { type: 'array', items: { enum: ['cake', 'wine'] }, maxItems: 1 },
    when: { type: 'string', format: 'date' },
  },
  required: ['name', 'size'],
};

describe('elicitation forms', () => {
  test('a fitting answer passes; defaults fill required fields left out', () => {
    expect(elicitationContentProblem(schema, { name: 'Ada', email: 'a@b.co', seating: 'inside', color: 'red', extras: ['cake'], when: '2026-12-06', price: 1.5 })).toBeUndefined();
    expect(withElicitationDefaults(schema, { name: 'Ada' })).toEqual({ name: 'Ada', size: 2, vip: false });
    expect(withElicitationDefaults(schema, { name: 'Ada', size: 4 })).toEqual({ name: 'Ada', size: 4, vip: false });
  });

  test.each([
    [{}, 'field "name" is required'],
    [{ name: 'Ada', size: 'four' }, 'field "size": must be a number, not "four"'],
    [{ name: 'Ada', size: 2.5 }, 'field "size": must be an integer, not 2.5'],
    [{ name: 'Ada', size: 13 }, 'field "size": must be at most 12, not 13'],
    [{ name: '' }, 'field "name": must be at least 1 characters long'],
    [{ name: 'Adalbert' }, 'field "name": must be at most 5 characters long'],
    [{ name: 'Ada', email: 'nope' }, 'field "email": must be an email, not "nope"'],
    [{ name: 'Ada', vip: 'yes' }, 'field "vip": must be true or false, not "yes"'],
    [{ name: 'Ada', seating: 'roof' }, 'field "seating": must be one of "inside", "terrace", not "roof"'],
    [{ name: 'Ada', color: 'green' }, 'field "color": must be one of "red", "blue", not "green"'],
    [{ name: 'Ada', extras: ['cake', 'wine'] }, 'field "extras": must have at most 1 item(s)'],
    [{ name: 'Ada', extras: ['beer'] }, 'field "extras": "beer" is not one of "cake", "wine"'],
    [{ name: 'Ada', when: '6 Dec' }, 'field "when": must be a date, not "6 Dec"'],
    [{ name: 'Ada', age: 3 }, 'field "age" is not in the form; its fields: name, email, size, price, vip, seating, color, extras, when'],
  ])('%j is refused: %s', (content, problem) => {
    expect(elicitationContentProblem(schema, content)).toBe(problem);
  });
});
