import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { startOfflineStandIn, type MessagesApiServer } from '../../src/offline';
import { MODEL, sdkClientFor, weatherTool } from '../support/fake-api-client';

describe('the offline stand-in (npm start without an API key)', () => {
  let standIn: MessagesApiServer;
  let client: Anthropic;
  const lines: string[] = [];

  beforeAll(async () => {
    standIn = await startOfflineStandIn({ log: (line) => lines.push(line) });
    client = sdkClientFor(standIn.url);
  });
  afterAll(async () => {
    await standIn.close();
  });

  it('runs the seed scenario: greeting, tool call, result, follow-up', async () => {
    const history: MessageParam[] = [];
    const ask = async (content: MessageParam['content']): Promise<Anthropic.Message> => {
      history.push({ role: 'user', content });
      const message = await client.messages.create({ model: MODEL, max_tokens: 1024, tools: [weatherTool], messages: history });
      history.push({ role: 'assistant', content: message.content });
      return message;
    };
    const textOf = (message: Anthropic.Message): string =>
      message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const toolUseOf = (message: Anthropic.Message): Anthropic.ToolUseBlock => {
      const block = message.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
      if (!block) throw new Error(`no tool_use in ${JSON.stringify(message.content)}`);
      return block;
    };

    const hello = await ask('你好');
    expect(hello.stop_reason).toBe('end_turn');
    expect(textOf(hello)).toMatch(/^\[offline stand-in\] /);
    expect(textOf(hello)).toContain('get_weather');

    const beijing = await ask('北京今天天气怎么样');
    expect(beijing.stop_reason).toBe('tool_use');
    expect(textOf(beijing)).toMatch(/^\[offline stand-in\] /);
    const firstCall = toolUseOf(beijing);
    expect(firstCall.name).toBe('get_weather');
    expect(firstCall.input).toEqual({ city: '北京' });

    const summary = await ask([{ type: 'tool_result', tool_use_id: firstCall.id, content: '北京：晴，25°C' }]);
    expect(summary.stop_reason).toBe('end_turn');
    expect(textOf(summary)).toMatch(/^\[offline stand-in\] /);
    expect(textOf(summary)).toContain('北京：晴，25°C');

    const shanghai = await ask('那上海呢');
    expect(shanghai.stop_reason).toBe('tool_use');
    const secondCall = toolUseOf(shanghai);
    expect(secondCall.name).toBe('get_weather');
    expect(secondCall.input).toEqual({ city: '上海' });
    expect(secondCall.id).not.toBe(firstCall.id);

    expect(lines.some((line) => line.includes('tools=get_weather'))).toBe(true);
  });

  it('refuses what the real API refuses', async () => {
    await expect(
      client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'assistant', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 400 });
    expect(lines.some((line) => line.startsWith('fake Messages API (rules) listening on http://127.0.0.1:'))).toBe(true);
  });
});
