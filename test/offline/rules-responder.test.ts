import { OFFLINE_PREFIX, respondByRules, type MessageAnswer } from '../../src/offline';

const weather = {
  name: 'get_weather',
  description: '根据城市名查询实时天气',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const englishWeather = { ...weather, description: 'Get the current weather for a city' };
const search = {
  name: 'search_docs',
  description: 'Search the project documentation',
  input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};

function ask(messages: unknown[], tools: unknown[] = [weather]): MessageAnswer {
  return respondByRules({ model: 'm', max_tokens: 100, tools, messages });
}

function text(step: MessageAnswer): string {
  return step.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}

function toolUse(step: MessageAnswer): { name: string; input: unknown } | undefined {
  const block = step.content.find((b) => b.type === 'tool_use');
  return block?.type === 'tool_use' ? { name: block.name, input: block.input } : undefined;
}

const beijingCall = [
  { role: 'user', content: '北京今天天气怎么样' },
  { role: 'assistant', content: [{ type: 'text', text: 'x' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: '北京' } }] },
];

describe('respondByRules', () => {
  it('greets in Chinese and lists the tools, saying it is a stand-in', () => {
    const step = ask([{ role: 'user', content: '你好' }]);
    expect(step.stop_reason).toBe('end_turn');
    expect(text(step)).toBe(`${OFFLINE_PREFIX}你好！（离线模拟的 Claude）我可以使用这些工具：get_weather。`);
    expect(toolUse(step)).toBeUndefined();
  });

  it('greets in English and says it has no tools when there are none', () => {
    const step = ask([{ role: 'user', content: 'hello' }], []);
    expect(text(step)).toMatch(/^\[offline stand-in\] .*not Claude.*no tools/);
  });

  it('calls the tool whose description shares a CJK pair with the question, with the city filled in', () => {
    const step = ask([{ role: 'user', content: '北京今天天气怎么样' }]);
    expect(step.stop_reason).toBe('tool_use');
    expect(text(step)).toBe(`${OFFLINE_PREFIX}我来调用 get_weather 查询。`);
    expect(toolUse(step)).toEqual({ name: 'get_weather', input: { city: '北京' } });
    // No id: the server assigns a fresh toolu_ id when it serves the step.
    expect(step.content[1]).not.toHaveProperty('id');
  });

  it('keeps names that contain filler characters', () => {
    expect(toolUse(ask([{ role: 'user', content: '帮我查一下天津的天气' }]))?.input).toEqual({ city: '天津' });
  });

  it('matches English words and fills a multi-word value', () => {
    const step = ask([{ role: 'user', content: "What's the weather like in New York today?" }], [search, englishWeather]);
    expect(toolUse(step)).toEqual({ name: 'get_weather', input: { city: 'New York' } });
    expect(text(step)).toBe(`${OFFLINE_PREFIX}I'll call get_weather.`);
  });

  it('summarises a tool result, in the language of the question', () => {
    const step = ask([...beijingCall, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '北京：晴，25°C' }] }]);
    expect(step.stop_reason).toBe('end_turn');
    expect(text(step)).toBe(`${OFFLINE_PREFIX}get_weather 的结果：北京：晴，25°C`);
  });

  it('reports failed tool calls', () => {
    const step = ask([
      ...beijingCall,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '城市不存在' }], is_error: true }] },
    ]);
    expect(text(step)).toContain('工具调用失败：get_weather：城市不存在');
  });

  it('calls the previous tool again for a follow-up that names a new value', () => {
    const history = [
      ...beijingCall,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '晴' }] },
      { role: 'assistant', content: [{ type: 'text', text: '北京晴' }] },
    ];
    expect(toolUse(ask([...history, { role: 'user', content: '那上海呢' }]))).toEqual({ name: 'get_weather', input: { city: '上海' } });
    // Thanks names no value: no call.
    expect(toolUse(ask([...history, { role: 'user', content: '谢谢' }]))).toBeUndefined();
  });

  it('follows up in English too', () => {
    const history = [
      { role: 'user', content: 'weather in Paris?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'sunny' }] },
      { role: 'assistant', content: 'sunny' },
      { role: 'user', content: 'And Tokyo?' },
    ];
    expect(toolUse(ask(history, [englishWeather]))).toEqual({ name: 'get_weather', input: { city: 'Tokyo' } });
  });

  it('asks for the value when a tool matches but the text names none', () => {
    const step = ask([{ role: 'user', content: '天气怎么样' }]);
    expect(step.stop_reason).toBe('end_turn');
    expect(text(step)).toContain('city');
  });

  it('never calls a tool under tool_choice none, as the real API', () => {
    const body = { model: 'm', max_tokens: 100, tools: [weather], tool_choice: { type: 'none' } };
    for (const messages of [[{ role: 'user', content: '北京今天天气怎么样' }], [...beijingCall.slice(0, 1), { role: 'assistant', content: 'x' }, { role: 'user', content: '那上海呢' }]]) {
      const step = respondByRules({ ...body, messages });
      expect(step.stop_reason).toBe('end_turn');
      expect(toolUse(step)).toBeUndefined();
    }
  });

  it('is deterministic', () => {
    const messages = [{ role: 'user', content: '北京今天天气怎么样' }];
    expect(ask(messages)).toEqual(ask(messages));
  });

  describe('server tools offered: it cannot reach the web nor run code, and says so plainly', () => {
    const webSearch = { type: 'web_search_20250305', name: 'web_search' };
    const webFetch = { type: 'web_fetch_20250910', name: 'web_fetch' };
    const code = { type: 'code_execution_20250825', name: 'code_execution' };

    it('no search result is made up: a plain end_turn saying it is a stand-in that cannot search or fetch the web', () => {
      const step = ask([{ role: 'user', content: 'Search the web for the latest Temporal release' }], [webSearch, webFetch, englishWeather]);
      expect(step.stop_reason).toBe('end_turn');
      expect(step.content.map((b) => b.type)).toEqual(['text']);
      expect(text(step)).toBe(
        `${OFFLINE_PREFIX}I am an offline stand-in for Claude, not Claude itself, so I cannot search or fetch the web: web_search and web_fetch run on Anthropic's servers, which need an ANTHROPIC_API_KEY. Nothing was searched. Tools I can use: get_weather.`,
      );
    });

    it('code execution likewise', () => {
      expect(text(ask([{ role: 'user', content: 'Compute the 30th Fibonacci number in Python' }], [code]))).toBe(
        `${OFFLINE_PREFIX}I am an offline stand-in for Claude, not Claude itself, so I cannot run code: code_execution runs on Anthropic's servers too.`,
      );
      expect(text(ask([{ role: 'user', content: 'Search, then compute' }], [webSearch, code]))).toMatch(/cannot search or fetch the web: web_search runs on .*Nothing was searched\. Nor can I run code/);
    });

    it('in Chinese for a Chinese question', () => {
      expect(text(ask([{ role: 'user', content: '帮我上网搜索一下最新的新闻' }], [webSearch]))).toBe(
        `${OFFLINE_PREFIX}我是离线模拟的 Claude，不是 Claude 本身，无法搜索或抓取网页（web_search 由 Anthropic 的服务器运行，需要 ANTHROPIC_API_KEY），没有搜索任何内容。`,
      );
    });

    it('an MCP tool that fits is still called', () => {
      expect(toolUse(ask([{ role: 'user', content: '北京今天天气怎么样' }], [webSearch, weather]))).toEqual({ name: 'get_weather', input: { city: '北京' } });
    });
  });
});
