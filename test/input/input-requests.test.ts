import { answerInput, inputEntryFor, inputRequestId, inputResponseProblem, pendingInputLine, stableJson, waitingInputs, type InputEntry } from '../../src/input/input-requests';

const form = { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } };
const at = { toolUseId: 'toolu_1', tool: 'asking__book', server: 'asking', since: '2026-12-06T00:00:00.000Z', turnId: 1 };

function entry(request = form, requestId = inputRequestId('toolu_1', '', request)): InputEntry {
  const made = inputEntryFor(request, { ...at, requestId });
  if (!made) throw new Error('no entry');
  return made;
}

describe('input requests', () => {
  test('the same question in the same call has the same id, whatever the key order; another call or place another', () => {
    const reordered = { params: { requestedSchema: form.params.requestedSchema, message: 'Name?' }, method: 'elicitation/create' };
    expect(inputRequestId('toolu_1', '', form)).toBe(inputRequestId('toolu_1', '', reordered));
    expect(inputRequestId('toolu_1', '', form)).toMatch(/^in_[0-9a-f]{16}$/);
    expect(inputRequestId('toolu_2', '', form)).not.toBe(inputRequestId('toolu_1', '', form));
    expect(inputRequestId('toolu_1', '1:details', form)).not.toBe(inputRequestId('toolu_1', '2:details', form));
    expect(stableJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
  });

  test('entries: form, URL and sampling; roots are not the user\'s', () => {
    expect(entry()).toMatchObject({ kind: 'elicitation', mode: 'form', message: 'Name?', requestedSchema: form.params.requestedSchema });
    const url = entry({ method: 'elicitation/create', params: { mode: 'url', message: 'Log in', url: 'https://x.test/a', elicitationId: 'e1' } } as never);
    expect(url).toMatchObject({ mode: 'url', url: 'https://x.test/a', elicitationId: 'e1' });
    expect(pendingInputLine(url)).toContain('asks you to visit https://x.test/a');
    const sampling = entry({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarize  this' } }], maxTokens: 50 } } as never);
    expect(sampling).toMatchObject({ kind: 'sampling', message: 'a completion of 1 message, at most 50 tokens: Summarize this' });
    expect(inputEntryFor({ method: 'roots/list' }, { ...at, requestId: 'in_x' })).toBeUndefined();
  });

  test('respond is checked: unknown id, bad action, schema, content where none is taken, already answered', () => {
    const waiting = entry();
    const list = [waiting];
    const id = waiting.requestId;
    expect(inputResponseProblem(list, { requestId: 'in_nope', action: 'accept' })).toBe(`no input request waits with id "in_nope"; waiting: ${id} (asking)`);
    expect(inputResponseProblem(list, { requestId: id, action: 'maybe' as never })).toBe('the action must be accept, decline or cancel, not "maybe"');
    expect(inputResponseProblem(list, { requestId: id, action: 'accept', content: { name: 3 } })).toBe('field "name": must be text, not 3');
    expect(inputResponseProblem(list, { requestId: id, action: 'decline', content: {} })).toBe('only an accept takes content, not a decline');
    expect(inputResponseProblem(list, { requestId: id, action: 'accept', content: { name: 'Ada' } })).toBeUndefined();
    expect(answerInput(list, { requestId: id, action: 'accept', content: { name: 'Ada' }, by: 'user' })).toMatchObject({ requestId: id });
    expect(waitingInputs(list)).toEqual([]);
    expect(inputResponseProblem(list, { requestId: id, action: 'decline' })).toBe(`${id} was already answered (accept)`);
  });
});
