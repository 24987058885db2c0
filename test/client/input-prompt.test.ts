import type { Client } from '@temporalio/client';
import type * as readline from 'node:readline/promises';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { approvalPrompt } from '../../src/client/approval-prompt';
import { answerWithInputs, askInput, fieldQuestion, inputPrompt, parseFieldAnswer, refusalTyped } from '../../src/client/input-prompt';
import { promptWhileTurnRuns } from '../../src/client/turn-prompts';
import type { PendingInput } from '../../src/input/input-requests';
import { formInput, samplingInput, urlInput } from './input-fixtures';

/** A readline-like input answering the questions with `lines` in turn; records each question. */
function scripted(lines: string[]): { ask: (question: string) => Promise<string>; asked: string[]; printed: string[]; print: (line: string) => void } {
  const asked: string[] = [];
  const printed: string[] = [];
  return {
    asked,
    printed,
    print: (line) => printed.push(line),
    ask: (question) => {
      asked.push(question);
      const line = lines.shift();
      return line === undefined ? Promise.reject(new Error('stdin closed')) : Promise.resolve(line);
    },
  };
}

describe("chat's input prompt: questions and answers (src/client/input-prompt.ts)", () => {
  test('a field question shows title, description, type, allowed values, required and the default in brackets', () => {
    const properties = formInput.requestedSchema?.properties as Record<string, Record<string, unknown>>;
    expect(fieldQuestion('name', properties.name!, true)).toBe('name · Name — as on the passport (text, required): ');
    expect(fieldQuestion('age', properties.age!, true)).toBe('age (integer, 0 to 150, required) [30]: ');
    expect(fieldQuestion('seat', properties.seat!, false)).toBe('seat (one of window, aisle) [window]: ');
    expect(fieldQuestion('meals', properties.meals!, false)).toBe('meals (comma-separated, any of veg, fish, meat): ');
    expect(fieldQuestion('insured', { type: 'boolean', default: false }, false)).toBe('insured (yes/no) [no]: ');
    expect(fieldQuestion('when', { type: 'string', format: 'date' }, false)).toBe('when (date, YYYY-MM-DD): ');
  });

  test.each([
    [{ type: 'integer' }, ' 42 ', 42],
    [{ type: 'number' }, '-1.5e2', -150],
    [{ type: 'integer' }, 'forty', 'forty'],
    [{ type: 'boolean' }, 'Y', true],
    [{ type: 'boolean' }, 'no', false],
    [{ type: 'boolean' }, 'maybe', 'maybe'],
    [{ type: 'array', items: { enum: ['veg', 'fish'] } }, 'veg, Fish,,', ['veg', 'fish']],
    [{ type: 'string', enum: ['window', 'aisle'] }, 'AISLE', 'aisle'],
    [{ type: 'string' }, '  Ada Lovelace ', 'Ada Lovelace'],
    [{ type: 'string' }, '   ', undefined],
  ])('%j reads %j as %j', (field, line, value) => {
    expect(parseFieldAnswer(field, line)).toEqual(value);
  });

  test('!decline and !cancel, in any case', () => {
    expect(refusalTyped(' !Decline ')).toBe('decline');
    expect(refusalTyped('!cancel')).toBe('cancel');
    expect(refusalTyped('decline')).toBeUndefined();
  });
});

describe("chat's input prompt: asking one request (askInput)", () => {
  test('a form field by field: empty takes the default, a bad value is asked again with the reason, lists and yes/no are read', async () => {
    const io = scripted(['A', 'Ada', '200', 'x', '', '', 'veg, fish', 'y']);
    const response = await askInput(formInput, io.ask, io.print);
    expect(response).toEqual({ action: 'accept', content: { name: 'Ada', age: 30, seat: 'window', meals: ['veg', 'fish'], insured: true } });
    expect(io.asked.map((q) => q.split(' ')[0])).toEqual(['name', 'name', 'age', 'age', 'age', 'seat', 'meals', 'insured']);
    expect(io.printed).toEqual([
      'in_form: server "travel" asks: Who flies?',
      '  (field by field; Enter takes the [default]; !decline or !cancel refuses the form)',
      '  field "name": must be at least 2 characters long',
      '  field "age": must be at most 150, not 200',
      '  field "age": must be a number, not "x"',
    ]);
  });

  test('a required field without a default is asked again when left empty; optional ones are left out', async () => {
    const io = scripted(['', 'Ada', '41', 'aisle', '', '']);
    expect(await askInput(formInput, io.ask, io.print)).toEqual({ action: 'accept', content: { name: 'Ada', age: 41, seat: 'aisle' } });
    expect(io.printed).toContain('  field "name" is required');
  });

  test('!decline or !cancel at any field refuses the whole form', async () => {
    expect(await askInput(formInput, scripted(['Ada', '!decline']).ask, () => undefined)).toEqual({ action: 'decline' });
    expect(await askInput(formInput, scripted(['!cancel']).ask, () => undefined)).toEqual({ action: 'cancel' });
  });

  test('a form without fields is a yes/no', async () => {
    const empty = { ...formInput, requestedSchema: { type: 'object', properties: {} } };
    expect(await askInput(empty, scripted(['y']).ask, () => undefined)).toEqual({ action: 'accept', content: {} });
    expect(await askInput(empty, scripted(['']).ask, () => undefined)).toEqual({ action: 'decline' });
  });

  test('a URL is printed, never opened, then "Done? [y/N/decline]"', async () => {
    const io = scripted(['y']);
    expect(await askInput(urlInput, io.ask, io.print)).toEqual({ action: 'accept' });
    expect(io.printed).toEqual([
      'in_url: server "travel" asks you to visit https://pay.example/session/42: Sign in to pay',
      '  open it yourself (the host never opens it): https://pay.example/session/42',
    ]);
    expect(io.asked).toEqual(['Done? [y/N/decline] ']);
    expect(await askInput(urlInput, scripted(['decline']).ask, () => undefined)).toEqual({ action: 'decline' });
    expect(await askInput(urlInput, scripted(['']).ask, () => undefined)).toEqual({ action: 'cancel' });
    expect(await askInput(urlInput, scripted(['n']).ask, () => undefined)).toEqual({ action: 'cancel' });
  });

  test('sampling shows the request and asks leave for Claude to answer', async () => {
    const io = scripted(['yes']);
    expect(await askInput(samplingInput, io.ask, io.print)).toEqual({ action: 'accept' });
    expect(io.printed).toEqual(['in_sample: server "travel" asks for a completion of 1 message, at most 200 tokens: Summarize the fare rules']);
    expect(io.asked).toEqual(['Allow Claude to answer? [y/N] ']);
    expect(await askInput(samplingInput, scripted(['']).ask, () => undefined)).toEqual({ action: 'decline' });
    expect(await askInput(samplingInput, scripted(['!cancel']).ask, () => undefined)).toEqual({ action: 'cancel' });
  });

  test('a withdrawn question rejects', async () => {
    await expect(askInput(formInput, scripted([]).ask, () => undefined)).rejects.toThrow('stdin closed');
  });
});

/** A readline.Interface stand-in: questions are answered by calling `answer` (or withdrawn by their signal). */
function fakeReadline(): { rl: readline.Interface; questions: string[]; answer: (line: string) => void; concurrent: () => number } {
  const questions: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let open = 0;
  let most = 0;
  const rl = {
    question: (query: string, options: { signal?: AbortSignal } = {}) =>
      new Promise<string>((resolve, reject) => {
        questions.push(query);
        most = Math.max(most, ++open);
        options.signal?.addEventListener('abort', () => {
          open--;
          reject(new Error('aborted'));
        });
        waiting.push((line) => {
          open--;
          resolve(line);
        });
      }),
  } as unknown as readline.Interface;
  return { rl, questions, answer: (line) => waiting.shift()?.(line), concurrent: () => most };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

describe('approvals and inputs of one turn: one status query a tick, one question at a time (promptWhileTurnRuns)', () => {
  const approval = { toolUseId: 'toolu_a', tool: 'travel__pay', server: 'travel', mcpTool: 'pay', arguments: {}, since: '2026-12-03T14:00:00.123Z', turnId: 3 };

  /** A client whose conversation shows one waiting approval and `inputs` until each is answered; counts the status queries. */
  function bothWaiting(inputs: PendingInput[]): { client: Client; queries: () => number; sent: unknown[] } {
    const sent: unknown[] = [];
    let queries = 0;
    const open = (key: string): boolean => !sent.some((s) => JSON.stringify(s).includes(key));
    const handle = {
      describe: () => Promise.resolve({}),
      query: () => {
        queries++;
        return Promise.resolve({ pendingApprovals: open('toolu_a') ? [approval] : [], pendingInputs: inputs.filter((i) => open(i.requestId)) });
      },
      executeUpdate: (_update: unknown, options: { args: [Record<string, unknown>] }) => {
        sent.push(options.args[0]);
        return Promise.resolve({ decided: [approval], stillWaiting: 0, answered: inputs[0] });
      },
    };
    return { client: { workflow: { getHandle: () => handle } } as unknown as Client, queries: () => queries, sent };
  }

  test('a second question waits for the first to be answered, and both prompts share each status query', async () => {
    const { client, queries, sent } = bothWaiting([samplingInput]);
    const fake = fakeReadline();
    let end: (value: undefined) => void = () => undefined;
    const turn = new Promise<undefined>((resolve) => (end = resolve));
    const asking = promptWhileTurnRuns(client, 'c1', turn, [approvalPrompt(client, fake.rl, 'c1', () => undefined), inputPrompt(client, fake.rl, 'c1', () => undefined)], 5);
    while (fake.questions.length < 1) await settle();
    await settle();
    expect(fake.questions).toHaveLength(1);
    expect(fake.questions[0]).toMatch(/^approve /);
    expect(queries()).toBe(1);
    fake.answer('y');
    while (fake.questions.length < 2) await settle();
    expect(fake.questions[1]).toBe('Allow Claude to answer? [y/N] ');
    fake.answer('y');
    while (sent.length < 2) await settle();
    end(undefined);
    await asking;
    expect(fake.concurrent()).toBe(1);
  });

  test('a question still open when the turn ends is withdrawn, and the next is never asked', async () => {
    const { client, sent } = bothWaiting([formInput]);
    const fake = fakeReadline();
    let end: (value: undefined) => void = () => undefined;
    const turn = new Promise<undefined>((resolve) => (end = resolve));
    const asking = promptWhileTurnRuns(client, 'c1', turn, [approvalPrompt(client, fake.rl, 'c1', () => undefined), inputPrompt(client, fake.rl, 'c1', () => undefined)], 5);
    while (fake.questions.length < 1) await settle();
    end(undefined);
    await expect(asking).resolves.toBeUndefined();
    await settle();
    expect(fake.questions).toHaveLength(1);
    expect(sent).toEqual([]);
  });
});

describe('chat asks while the turn runs (answerWithInputs)', () => {
  /** A client whose conversation shows `pending` until answered; `refuse` makes the update fail as the validator would. */
  function fakeClient(pending: PendingInput[], refuse?: string): { client: Client; sent: unknown[] } {
    const sent: unknown[] = [];
    const handle = {
      describe: () => Promise.resolve({}),
      query: () => Promise.resolve({ pendingApprovals: [], pendingInputs: pending.filter((p) => !sent.some((s) => (s as { requestId: string }).requestId === p.requestId)) }),
      executeUpdate: (_update: unknown, options: { args: [{ requestId: string }] }) => {
        if (refuse !== undefined) return Promise.reject(new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.create({ message: refuse })));
        sent.push(options.args[0]);
        const answered = pending.find((p) => p.requestId === options.args[0].requestId);
        return Promise.resolve({ answered, stillWaiting: pending.length - sent.length });
      },
    };
    return { client: { workflow: { getHandle: () => handle } } as unknown as Client, sent };
  }

  test('each waiting request is asked once and answered; the turn ends with its answer', async () => {
    const { client, sent } = fakeClient([samplingInput, urlInput]);
    const fake = fakeReadline();
    let end: (value: undefined) => void = () => undefined;
    const turn = new Promise<undefined>((resolve) => (end = resolve));
    const printed: string[] = [];
    const asking = answerWithInputs(client, fake.rl, 'c1', turn, (line) => printed.push(line), 5);
    while (fake.questions.length < 1) await settle();
    fake.answer('y');
    while (fake.questions.length < 2) await settle();
    fake.answer('decline');
    while (sent.length < 2) await settle();
    end(undefined);
    await expect(asking).resolves.toBeUndefined();
    expect(sent).toEqual([
      { requestId: 'in_sample', action: 'accept' },
      { requestId: 'in_url', action: 'decline' },
    ]);
    expect(fake.questions).toEqual(['Allow Claude to answer? [y/N] ', 'Done? [y/N/decline] ']);
    expect(printed).toContain('accepted in_sample (sampling of travel); 1 still waiting');
    expect(printed).toContain('declined in_url (elicitation/url of travel); 0 still waiting');
  });

  test('a request answered elsewhere meanwhile is said, and chat goes on', async () => {
    const { client } = fakeClient([samplingInput], 'in_sample was already answered (decline)');
    const fake = fakeReadline();
    let end: (value: undefined) => void = () => undefined;
    const turn = new Promise<undefined>((resolve) => (end = resolve));
    const printed: string[] = [];
    const asking = answerWithInputs(client, fake.rl, 'c1', turn, (line) => printed.push(line), 5);
    while (fake.questions.length < 1) await settle();
    fake.answer('y');
    while (printed.length < 2) await settle();
    expect(printed[1]).toBe('in_sample was answered elsewhere meanwhile (decline); going on');
    end(undefined);
    await asking;
    expect(fake.questions).toHaveLength(1);
  });

  test('a question still open when the turn ends is withdrawn', async () => {
    const { client, sent } = fakeClient([formInput]);
    const fake = fakeReadline();
    let end: (value: undefined) => void = () => undefined;
    const turn = new Promise<undefined>((resolve) => (end = resolve));
    const asking = answerWithInputs(client, fake.rl, 'c1', turn, () => undefined, 5);
    while (fake.questions.length < 1) await settle();
    end(undefined);
    await expect(asking).resolves.toBeUndefined();
    expect(sent).toEqual([]);
  });
});
