import type { ScriptStep } from '../../src/testing';
import type { MessageParam } from '../../src/conversation/types';

/**
 * The seed's §7.2 `messages` at the third request (你好 → 北京 with one get_weather call → 那上海呢),
 * exactly as the seed writes them. Frozen: tests share it.
 */
export const SEED_TRANSCRIPT: readonly MessageParam[] = Object.freeze([
  { role: 'user', content: '你好' },
  { role: 'assistant', content: [{ type: 'text', text: '你好，有什么可以帮你？' }] },
  { role: 'user', content: '北京今天天气怎么样' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: '我需要查一下北京的天气。' },
      { type: 'tool_use', id: 'toolu_01AbC', name: 'get_weather', input: { city: '北京' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01AbC', content: '北京今天晴，25°C' }] },
  { role: 'assistant', content: [{ type: 'text', text: '北京今天晴，25°C，适合出门。' }] },
  { role: 'user', content: '那上海呢' },
] satisfies MessageParam[]);

/**
 * The model's five replies in the seed's §7.2 conversation, as fake Messages API steps: a greeting,
 * the Beijing tool call (`toolu_01AbC`) and answer, the Shanghai tool call (`toolu_02SH`) and answer.
 */
export function seedReplies(): ScriptStep[] {
  return [
    { kind: 'message', content: [{ type: 'text', text: '你好，有什么可以帮你？' }], stop_reason: 'end_turn' },
    {
      kind: 'message',
      content: [
        { type: 'text', text: '我需要查一下北京的天气。' },
        { type: 'tool_use', id: 'toolu_01AbC', name: 'get_weather', input: { city: '北京' } },
      ],
      stop_reason: 'tool_use',
    },
    { kind: 'message', content: [{ type: 'text', text: '北京今天晴，25°C，适合出门。' }], stop_reason: 'end_turn' },
    {
      kind: 'message',
      content: [{ type: 'tool_use', id: 'toolu_02SH', name: 'get_weather', input: { city: '上海' } }],
      stop_reason: 'tool_use',
    },
    { kind: 'message', content: [{ type: 'text', text: '上海今天多云，22°C。' }], stop_reason: 'end_turn' },
  ];
}
