/**
 * The offline stand-in for Claude: deterministic rules that pick a tool by word overlap, fill its
 * arguments from the user's text and summarise tool results. Good enough to walk through the whole
 * tool loop without an API key; every answer says it is a stand-in so nobody mistakes it for Claude.
 */
import type { AnswerContentBlock, MessageAnswer } from './messages-api-answer';
import { signThinking } from './thinking-signature';
import { TOOL_SEARCH_TYPES } from './tool-search-emulation';

/** Starts every answer's text, so no transcript can pass the stand-in off as Claude. */
export const OFFLINE_PREFIX = '[offline stand-in] ';

type Json = Record<string, unknown>;

interface ToolInfo {
  name: string;
  description: string;
  /** Required parameter names with their JSON-schema `type` (undefined when not given). */
  required: Array<{ name: string; type: unknown }>;
}

interface ToolResult {
  id: string;
  text: string;
  isError: boolean;
}

const CJK_CHAR = /[\u3400-\u9fff\uf900-\ufaff]/;
const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/g;
const LATIN_WORD = /[A-Za-z0-9][A-Za-z0-9'’]*/g;
/** Marks text removed as filler: values are the fragments between marks. */
const CUT = '\u0000';

/** Chinese filler removed wherever it appears (longest first, see FILLER_ZH_SORTED). */
const FILLER_ZH = [
  '今天', '明天', '现在', '天气', '怎么样', '怎样', '如何', '一下', '帮我', '请问', '告诉我', '我想',
  '知道', '什么', '多少', '还有', '那么', '看看', '情况', '你好', '您好', '谢谢', '好的', '再见',
];
const FILLER_ZH_SORTED = [...FILLER_ZH].sort((a, b) => b.length - a.length);
/** Single characters removed only at a fragment's edges, so names containing them survive. */
const FILLER_ZH_EDGE = new Set([...'那呢的吗查请呀啊吧了在是和么你我给']);
/** English words that never carry an argument value. */
const FILLER_EN = new Set([
  'what', "what's", 'whats', 'is', 'are', 'the', 'a', 'an', 'weather', 'in', 'at', 'on', 'for', 'of', 'to',
  'how', "how's", 'like', 'today', 'tomorrow', 'now', 'right', 'please', 'tell', 'me', 'about', 'and',
  'current', 'currently', 'check', 'get', 'show', 'find', 'look', 'up', 'it', 'its', "it's", 'there', 'do',
  'does', 'you', 'can', 'could', 'would', 'i', 'want', 'know', 'hi', 'hello', 'hey', 'thanks', 'thank',
  'bye', 'ok', 'okay', 'then',
]);
/** English words too common to say that a text is about a tool. */
const NON_MATCHING_EN = new Set([
  'the', 'and', 'for', 'what', 'how', 'you', 'get', 'set', 'can', 'with', 'from', 'this', 'that', 'please',
  'are', 'not', 'any', 'all', 'use', 'given', 'returns', 'return',
]);
/** A follow-up value longer than this is more likely a new question than a new argument. */
const MAX_FOLLOW_UP_VALUE = 40;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function blocksOf(content: unknown): Json[] {
  return Array.isArray(content) ? (content as unknown[]).filter(isRecord) : [];
}

/** The plain text of a message's content: the string, or its text blocks joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocksOf(content)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

function readTools(tools: unknown): ToolInfo[] {
  if (!Array.isArray(tools)) return [];
  return (tools as unknown[]).filter(isRecord).flatMap((tool) => {
    // Server tools (the tool search tool…) are the API's to run, not the stand-in's to call.
    if (typeof tool.name !== 'string' || (tool.type !== undefined && tool.type !== null && tool.type !== 'custom')) return [];
    const schema = isRecord(tool.input_schema) ? tool.input_schema : {};
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required)
      ? (schema.required as unknown[]).filter((n): n is string => typeof n === 'string')
      : [];
    return [
      {
        name: tool.name,
        description: typeof tool.description === 'string' ? tool.description : '',
        required: required.map((name) => {
          const prop = properties[name];
          return { name, type: isRecord(prop) ? prop.type : undefined };
        }),
      },
    ];
  });
}

function cjkBigrams(text: string): Set<string> {
  const grams = new Set<string>();
  for (const run of text.match(CJK_RUN) ?? []) {
    const chars = [...run];
    for (let i = 0; i + 1 < chars.length; i++) grams.add(`${chars[i]}${chars[i + 1]}`);
  }
  return grams;
}

function latinWords(text: string): string[] {
  return (text.match(LATIN_WORD) ?? []).map((w) => w.toLowerCase());
}

/** The words a tool is known by: its name split at `_`, `-` and camelCase, and its description. */
function toolVocabulary(tool: ToolInfo): { words: Set<string>; bigrams: Set<string> } {
  const nameWords = tool.name.replace(/([a-z])([A-Z])/g, '$1 $2').split(/[_\-\s]+/);
  const words = new Set([...nameWords.map((w) => w.toLowerCase()), ...latinWords(tool.description)]);
  return { words, bigrams: cjkBigrams(`${tool.name} ${tool.description}`) };
}

/** How strongly a text is about a tool: shared meaningful words plus shared CJK character pairs. */
function matchScore(text: string, tool: ToolInfo): number {
  const { words, bigrams } = toolVocabulary(tool);
  let score = 0;
  for (const word of new Set(latinWords(text))) {
    if (word.length >= 3 && !NON_MATCHING_EN.has(word) && words.has(word)) score++;
  }
  for (const gram of cjkBigrams(text)) if (bigrams.has(gram)) score++;
  return score;
}

function pickTool(text: string, tools: ToolInfo[]): ToolInfo | undefined {
  let best: ToolInfo | undefined;
  let bestScore = 0;
  for (const tool of tools) {
    const score = matchScore(text, tool);
    if (score > bestScore) [best, bestScore] = [tool, score];
  }
  return best;
}

/** Removes, inside one CJK run, every character pair the tool's description also contains. */
function cutDescriptionPairs(run: string, descriptionPairs: Set<string>): string {
  const chars = [...run];
  const cut = chars.map(() => false);
  for (let i = 0; i + 1 < chars.length; i++) {
    if (descriptionPairs.has(`${chars[i]}${chars[i + 1]}`)) cut[i] = cut[i + 1] = true;
  }
  return chars.map((c, i) => (cut[i] ? CUT : c)).join('');
}

function trimEdgeFillers(fragment: string): string {
  const chars = [...fragment.trim()];
  while (chars.length > 0 && FILLER_ZH_EDGE.has(chars[0] ?? '')) chars.shift();
  while (chars.length > 0 && FILLER_ZH_EDGE.has(chars[chars.length - 1] ?? '')) chars.pop();
  return chars.join('').trim();
}

/**
 * The candidate argument values in a text, in order: what remains once filler words and the
 * words of the tool's own description are cut out ("北京今天天气怎么样" → ["北京"]).
 */
function candidateValues(text: string, tool: ToolInfo): string[] {
  const { words, bigrams } = toolVocabulary(tool);
  let rest = text.replace(LATIN_WORD, (w) => {
    const lower = w.toLowerCase();
    return FILLER_EN.has(lower) || words.has(lower) ? CUT : w;
  });
  for (const filler of FILLER_ZH_SORTED) rest = rest.split(filler).join(CUT);
  rest = rest.replace(CJK_RUN, (run) => cutDescriptionPairs(run, bigrams));
  return rest
    .split(new RegExp(`[${CUT},，。.？?！!、;；:：()（）"“”'‘’\\n]`))
    .map((f) => trimEdgeFillers(f.replace(/\s+/g, ' ')))
    .filter((f) => f !== '');
}

function longest(values: string[]): string | undefined {
  return values.reduce<string | undefined>((best, v) => (best === undefined || [...v].length > [...best].length ? v : best), undefined);
}

/** The tool's required arguments filled from the text, or the name of one that could not be. */
function fillArguments(text: string, tool: ToolInfo): { input: Json } | { missing: string } {
  const values = candidateValues(text, tool);
  const strings = tool.required.filter((p) => p.type === 'string' || p.type === undefined);
  const input: Json = {};
  for (const [i, param] of strings.entries()) {
    const value = strings.length === 1 ? longest(values) : values[i];
    if (value === undefined) return { missing: param.name };
    input[param.name] = value;
  }
  for (const param of tool.required) {
    if (param.type !== 'number' && param.type !== 'integer') continue;
    const number = text.match(/-?\d+(\.\d+)?/)?.[0];
    if (number === undefined) return { missing: param.name };
    input[param.name] = param.type === 'integer' ? Math.trunc(Number(number)) : Number(number);
  }
  return { input };
}

/** The last tool the "model" called in this conversation, if any. */
function lastToolCall(messages: Json[]): { name: string } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'assistant') continue;
    const uses = blocksOf(message.content).filter((b) => b.type === 'tool_use' && typeof b.name === 'string');
    const last = uses[uses.length - 1];
    if (last) return { name: last.name as string };
  }
  return undefined;
}

function toolResultsOf(content: unknown): ToolResult[] {
  return blocksOf(content)
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({
      id: typeof b.tool_use_id === 'string' ? b.tool_use_id : '',
      text: textOf(b.content).trim(),
      isError: b.is_error === true,
    }));
}

/** The latest thing the user actually typed (tool results are not typed by the user). */
function lastUserText(messages: Json[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'user') continue;
    const text = textOf(message.content).trim();
    if (text !== '') return text;
  }
  return '';
}

function say(text: string, extra: AnswerContentBlock[] = [], stopReason = 'end_turn'): MessageAnswer {
  return { kind: 'message', content: [{ type: 'text', text: `${OFFLINE_PREFIX}${text}` }, ...extra], stop_reason: stopReason };
}

function summariseResults(messages: Json[], results: ToolResult[], chinese: boolean): MessageAnswer {
  const previous = messages[messages.length - 2];
  const names = new Map<string, string>();
  for (const b of blocksOf(previous?.content)) {
    if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') names.set(b.id, b.name);
  }
  const lines = results.map((r) => {
    const name = names.get(r.id) ?? r.id;
    const text = r.text || (chinese ? '（无内容）' : '(empty)');
    if (chinese) return r.isError ? `工具调用失败：${name}：${text}` : `${name} 的结果：${text}`;
    return r.isError ? `Tool call failed: ${name}: ${text}` : `Result of ${name}: ${text}`;
  });
  return say(lines.join('\n'));
}

function callTool(tool: ToolInfo, input: Json, chinese: boolean, search?: AnswerContentBlock): MessageAnswer {
  const text = chinese ? `我来调用 ${tool.name} 查询。` : `I'll call ${tool.name}.`;
  return say(text, [...(search !== undefined ? [search] : []), { type: 'tool_use', name: tool.name, input }], 'tool_use');
}

/** Tool names a `tool_reference` in the messages loaded (deferred tools the "model" may call now). */
function loadedByReference(messages: Json[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    for (const block of blocksOf(message.content)) {
      const content = block.type === 'tool_search_tool_result' && isRecord(block.content) ? block.content : {};
      for (const ref of blocksOf(content.tool_references)) if (typeof ref.tool_name === 'string') names.add(ref.tool_name);
    }
  }
  return names;
}

/**
 * The tool search to run before calling `tool`, when it is deferred and no search loaded it yet:
 * the request's search tool with the user's text as its query (the server runs it and puts the
 * result after it, src/offline/tool-search-emulation.ts).
 */
function searchFor(tool: ToolInfo, request: Json, messages: Json[], userText: string): AnswerContentBlock | undefined {
  const tools = Array.isArray(request.tools) ? (request.tools as unknown[]).filter(isRecord) : [];
  const deferred = tools.some((t) => t.name === tool.name && t.defer_loading === true);
  if (!deferred || loadedByReference(messages).has(tool.name)) return undefined;
  const searchTool = tools.map((t) => (typeof t.type === 'string' ? TOOL_SEARCH_TYPES[t.type] : undefined)).find((n) => n !== undefined);
  if (searchTool === undefined) return undefined;
  const query = searchTool === 'tool_search_tool_regex' ? tool.name : userText;
  return { type: 'server_tool_use', name: searchTool, input: { query } };
}

/** The server tools a request offers (web search, web fetch, code execution), by name. */
function offeredServerTools(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return (tools as unknown[])
    .filter(isRecord)
    .flatMap((tool) => (typeof tool.type === 'string' && /^(web_search|web_fetch|code_execution)_/.test(tool.type) && typeof tool.name === 'string' ? [tool.name] : []));
}

/**
 * What the stand-in says when a request offers server tools and no MCP tool fits: it cannot reach
 * the web nor run code (the API runs those tools, on Anthropic's servers), so it says so plainly,
 * and never makes up a search result.
 */
function cannotRunServerTools(server: readonly string[], names: readonly string[], chinese: boolean): MessageAnswer {
  const web = server.filter((n) => n === 'web_search' || n === 'web_fetch');
  const code = server.includes('code_execution');
  const parts: string[] = [];
  if (chinese) {
    parts.push('我是离线模拟的 Claude，不是 Claude 本身');
    if (web.length > 0) parts.push(`，无法搜索或抓取网页（${web.join('、')} 由 Anthropic 的服务器运行，需要 ANTHROPIC_API_KEY），没有搜索任何内容`);
    if (code) parts.push(`${web.length > 0 ? '；也' : '，'}无法运行代码（code_execution 同样在 Anthropic 的服务器上运行）`);
    parts.push('。');
    if (names.length > 0) parts.push(`我可以使用这些工具：${names.join('、')}。`);
    return say(parts.join(''));
  }
  parts.push('I am an offline stand-in for Claude, not Claude itself');
  if (web.length > 0) {
    parts.push(`, so I cannot search or fetch the web: ${web.join(' and ')} ${web.length === 1 ? 'runs' : 'run'} on Anthropic's servers, which need an ANTHROPIC_API_KEY. Nothing was searched`);
  }
  if (code) parts.push(`${web.length > 0 ? '. Nor can I' : ', so I cannot'} run code: code_execution runs on Anthropic's servers too`);
  parts.push('.');
  if (names.length > 0) parts.push(` Tools I can use: ${names.join(', ')}.`);
  return say(parts.join(''));
}

/**
 * Answers a (validated) Messages API request body by fixed rules, as the `message` answer the fake
 * then serves:
 * - the last user message carries tool results → `end_turn` with a summary of them;
 * - the user's text shares words (Latin) or a character pair (CJK) with a tool's name or
 *   description → `tool_use` of that tool, required string arguments filled from the text;
 * - nothing matches but the previous call's tool takes one string argument and the text names a
 *   value ("那上海呢") → the same tool again with that value;
 * - otherwise `end_turn` listing the tools; when the request offers server tools (web search, web
 *   fetch, code execution), saying plainly that the stand-in cannot search or fetch the web or run
 *   code. Chinese answers for Chinese questions.
 * Under `tool_choice: none` it calls no tool, as the real API. A deferred tool (tool search) is
 * searched for first, in the same answer, unless a search loaded it already. With thinking on (`enabled` or
 * `adaptive`) the answer starts with a signed thinking block that says what the rules decided.
 */
export function respondByRules(body: unknown): MessageAnswer {
  const request = isRecord(body) ? body : {};
  const answer = answerByRules(request);
  const thinking = request.thinking;
  if (!isRecord(thinking) || (thinking.type !== 'enabled' && thinking.type !== 'adaptive')) return answer;
  const text = `${OFFLINE_PREFIX}no reasoning here, only rules: ${decisionOf(answer)}`;
  return { ...answer, content: [{ type: 'thinking', thinking: text, signature: signThinking(text) }, ...answer.content] };
}

/** What an answer of the rules does, in a few words (the stand-in's "thinking"). */
function decisionOf(answer: MessageAnswer): string {
  const call = answer.content.find((block) => block.type === 'tool_use');
  if (call?.type === 'tool_use') return `the question matches ${call.name}; call it with ${JSON.stringify(call.input)}.`;
  return 'no tool to call; answer in text.';
}

function answerByRules(request: Json): MessageAnswer {
  const messages = Array.isArray(request.messages) ? (request.messages as unknown[]).filter(isRecord) : [];
  // `tool_choice: none` offers the tools to read, never to call (the host sends it when only stand-ins remain).
  const choice = request.tool_choice;
  const tools = isRecord(choice) && choice.type === 'none' ? [] : readTools(request.tools);
  const userText = lastUserText(messages);
  const chinese = CJK_CHAR.test(userText);

  const last = messages[messages.length - 1];
  const results = last?.role === 'user' ? toolResultsOf(last.content) : [];
  if (results.length > 0) return summariseResults(messages, results, chinese);

  const matched = pickTool(userText, tools);
  if (matched) {
    const filled = fillArguments(userText, matched);
    if ('input' in filled) return callTool(matched, filled.input, chinese, searchFor(matched, request, messages, userText));
    return say(
      chinese
        ? `我可以用 ${matched.name} 查询，但还需要知道 ${filled.missing}。`
        : `I can use ${matched.name}, but I need a value for ${filled.missing}.`,
    );
  }

  const previous = lastToolCall(messages);
  const again = previous && tools.find((t) => t.name === previous.name);
  if (again && again.required.length === 1 && again.required[0]?.type === 'string') {
    const value = longest(candidateValues(userText, again));
    const param = again.required[0].name;
    if (value !== undefined && [...value].length <= MAX_FOLLOW_UP_VALUE) return callTool(again, { [param]: value }, chinese);
  }

  const names = tools.map((t) => t.name);
  const server = offeredServerTools(request.tools);
  if (server.length > 0) return cannotRunServerTools(server, names, chinese);
  if (chinese) {
    const list = names.length > 0 ? `我可以使用这些工具：${names.join('、')}。` : '目前没有可用的工具。';
    return say(`你好！（离线模拟的 Claude）${list}`);
  }
  const list = names.length > 0 ? `Tools I can use: ${names.join(', ')}.` : 'I have no tools available.';
  return say(`Hello! (offline stand-in for Claude, not Claude itself) ${list}`);
}
