import { renderPendingApprovals } from '../../src/client/approvals';
import { formFieldLine, pendingInputLines, renderInputAnswer } from '../../src/client/render-inputs';
import { renderStatus } from '../../src/client/render-status';
import { conversationOptions } from '../../src/client/conversation-options';
import { newConversationState, statusOf } from '../../src/conversation/conversation-state';
import { formInput, samplingInput, urlInput } from './input-fixtures';

const call = { toolUseId: 'toolu_1', tool: 'get_weather', server: 'weather', mcpTool: 'get_weather', arguments: { city: '北京' }, since: '2026-12-03T14:00:00.000Z', turnId: 3 };

describe('input request texts of the CLI (src/client/render-inputs.ts)', () => {
  test('a form lists its fields: name, type, required, allowed values, default, title and description', () => {
    expect(pendingInputLines(formInput)).toEqual([
      'in_form · travel · elicitation/form (book_flight, toolu_f, since 2026-12-03T14:00:00Z): Who flies?',
      '  name: string, required — Name: as on the passport',
      '  age: integer, required, default 30',
      '  seat: string, one of "window", "aisle", default "window"',
      '  meals: list, any of "veg", "fish", "meat"',
      '  insured: boolean',
    ]);
    expect(formFieldLine('when', { type: 'string', format: 'date' }, false)).toBe('when: string (date)');
    expect(pendingInputLines({ ...formInput, requestedSchema: { type: 'object', properties: {} } })).toEqual([
      'in_form · travel · elicitation/form (book_flight, toolu_f, since 2026-12-03T14:00:00Z): Who flies?',
      '  (a form without fields: accept or decline)',
    ]);
  });

  test('a URL visit shows the URL; a sampling request its one line', () => {
    expect(pendingInputLines(urlInput)).toEqual([
      'in_url · travel · elicitation/url (book_flight, toolu_u, since 2026-12-03T14:00:00Z): Sign in to pay',
      '  url: https://pay.example/session/42',
    ]);
    expect(pendingInputLines(samplingInput)).toEqual([
      'in_sample · travel · sampling (book_flight, toolu_s, since 2026-12-03T14:00:00Z): a completion of 1 message, at most 200 tokens: Summarize the fare rules',
    ]);
  });

  test('what a respond did, and how many still wait', () => {
    expect(renderInputAnswer('accept', { answered: formInput, stillWaiting: 2 })).toBe('accepted in_form (elicitation/form of travel); 2 still waiting');
    expect(renderInputAnswer('decline', { answered: urlInput, stillWaiting: 0 })).toBe('declined in_url (elicitation/url of travel); 0 still waiting');
    expect(renderInputAnswer('cancel', { answered: samplingInput, stillWaiting: 1 })).toBe('cancelled in_sample (sampling of travel); 1 still waiting');
  });
});

describe('mcp-host pending with input requests (renderPendingApprovals)', () => {
  test('waiting requests follow the waiting calls; a conversation waiting only for input is headed by its turn', () => {
    const text = renderPendingApprovals([
      { id: 'c1', pending: [call], pendingInputs: [urlInput] },
      { id: 'c2', pending: [], pendingInputs: [samplingInput] },
    ]);
    expect(text.split('\n')).toEqual([
      'c1  (turn 3)',
      '  get_weather {"city":"北京"} · weather (toolu_1, since 2026-12-03T14:00:00Z)',
      '  in_url · travel · elicitation/url (book_flight, toolu_u, since 2026-12-03T14:00:00Z): Sign in to pay',
      '    url: https://pay.example/session/42',
      'c2  (turn 3)',
      '  in_sample · travel · sampling (book_flight, toolu_s, since 2026-12-03T14:00:00Z): a completion of 1 message, at most 200 tokens: Summarize the fare rules',
    ]);
  });

  test('rows without inputs, and the empty listing, read as before; listing inputs too says so when empty', () => {
    expect(renderPendingApprovals([{ id: 'c1', pending: [call], pendingInputs: [] }])).toBe(renderPendingApprovals([{ id: 'c1', pending: [call] }]));
    expect(renderPendingApprovals([])).toBe('no tool call waits for approval');
    expect(renderPendingApprovals([], { inputs: true })).toBe('no tool call waits for approval, no server waits for input');
  });
});

describe('mcp-host status with input requests (renderStatus)', () => {
  test('each waiting request one line, after the waiting calls; sampling calls and their tokens when there were any', () => {
    const state = newConversationState(conversationOptions({}));
    state.currentTurn = 3;
    state.approvals.push({ ...call });
    for (const input of [formInput, urlInput]) state.inputs.push({ ...input, request: { method: 'elicitation/create' } });
    state.sampling = { calls: 2, usage: { inputTokens: 120, outputTokens: 45, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 } };
    const lines = renderStatus(statusOf(state, false)).split('\n');
    expect(lines.slice(-3)).toEqual([
      'waiting for approval: get_weather {"city":"北京"} · weather (toolu_1, since 2026-12-03T14:00:00Z)',
      'waiting for input: in_form: server "travel" asks: Who flies?',
      '                   in_url: server "travel" asks you to visit https://pay.example/session/42: Sign in to pay',
    ]);
    expect(lines).toContain('sampling: 2 completions for servers, tokens: input 120, output 45');
  });

  test('nothing of it without requests or sampling, nor from a worker whose status has no such fields', () => {
    const status = statusOf(newConversationState(conversationOptions({})), false);
    expect(renderStatus(status)).not.toMatch(/input:|sampling/);
    const older = { ...status };
    delete older.pendingInputs;
    delete older.sampling;
    expect(renderStatus(older)).toBe(renderStatus(status));
  });
});
