/**
 * The weather server's whole "weather API": a fixed table of Chinese cities.
 * Fixed text on purpose: tests and recorded conversations can assert the exact string the seed
 * shows (北京 → "北京今天晴，25°C"), and nothing depends on the network or the clock.
 */

interface CityEntry {
  /** The Chinese name: the canonical spelling, and the one a suggestion names. */
  readonly name: string;
  /** English spellings, matched case-insensitively. */
  readonly aliases: readonly string[];
  readonly text: string;
}

// Order matters only for ties in suggestions: the earlier city wins (东京 → 北京, not 南京).
const CITIES: readonly CityEntry[] = [
  { name: '北京', aliases: ['Beijing', 'Peking'], text: '北京今天晴，25°C' },
  { name: '上海', aliases: ['Shanghai'], text: '上海今天多云，22°C' },
  { name: '广州', aliases: ['Guangzhou', 'Canton'], text: '广州今天雷阵雨，30°C' },
  { name: '深圳', aliases: ['Shenzhen'], text: '深圳今天阵雨，29°C' },
  { name: '杭州', aliases: ['Hangzhou'], text: '杭州今天小雨，20°C' },
  { name: '成都', aliases: ['Chengdu'], text: '成都今天阴，18°C' },
  { name: '南京', aliases: ['Nanjing'], text: '南京今天晴，23°C' },
  { name: '武汉', aliases: ['Wuhan'], text: '武汉今天多云，27°C' },
  { name: '西安', aliases: ["Xi'an", 'Xian'], text: '西安今天晴，21°C' },
  { name: '重庆', aliases: ['Chongqing'], text: '重庆今天阴，26°C' },
];

/** The outcome of a lookup: `ok: false` carries the message the tool reports with `isError: true`. */
export type WeatherLookup = { ok: true; text: string } | { ok: false; text: string };

/**
 * Looks a city up by its Chinese or English name. Surrounding whitespace and a trailing 市
 * ("北京市") are ignored. An unknown city yields the seed's message, with a suggestion when a
 * known name is within a small edit distance: 北进 → "找不到城市：北进（是否想输入'北京'？）".
 */
export function lookupWeather(city: string): WeatherLookup {
  const input = city.trim();
  const key = normalise(input);
  const entry = CITIES.find((c) => c.name === key || c.aliases.some((a) => a.toLowerCase() === key));
  if (entry !== undefined) return { ok: true, text: entry.text };

  const suggestion = closestName(key);
  return {
    ok: false,
    text: suggestion === undefined ? `找不到城市：${input}` : `找不到城市：${input}（是否想输入'${suggestion}'？）`,
  };
}

function normalise(input: string): string {
  const lower = input.toLowerCase();
  // "北京市" is how the city is often written in full; "市" alone stays as typed (and is unknown).
  return lower.length > 1 && lower.endsWith('市') ? lower.slice(0, -1).trimEnd() : lower;
}

/**
 * The Chinese name of the city whose spelling (Chinese or English) is nearest to `key`, if it is
 * near enough to be a plausible typo. Always the Chinese name: the message around it is Chinese,
 * and either spelling works when the model retries with it.
 */
function closestName(key: string): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const entry of CITIES) {
    for (const spelling of [entry.name, ...entry.aliases]) {
      const distance = editDistance(key, spelling.toLowerCase());
      if (distance <= tolerance(spelling) && (best === undefined || distance < best.distance)) {
        best = { name: entry.name, distance };
      }
    }
  }
  return best?.name;
}

// One wrong character in a two-character Chinese name, about one in three letters in English.
function tolerance(candidate: string): number {
  return Math.max(1, Math.floor([...candidate].length / 3));
}

/** Levenshtein distance over code points, so each Chinese character counts once. */
function editDistance(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  let previous = Array.from({ length: right.length + 1 }, (_, j) => j);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (left[i - 1] === right[j - 1] ? 0 : 1);
      const deletion = (previous[j] ?? 0) + 1;
      const insertion = (current[j - 1] ?? 0) + 1;
      current.push(Math.min(substitution, deletion, insertion));
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}
