/**
 * What the fake Messages API answers in one benchmark turn of N model calls: N-1 replies that say
 * what they are about to look up and call `station_report`, then a final `end_turn` summary.
 * Each answer also checks that the request carries the whole conversation so far, so every design
 * is seen to send Claude exactly the same thing: only what Temporal records differs.
 */
import type { RecordedRequest, ScriptStep } from '../src/testing';

/** The stations the "model" cycles through. */
const STATIONS = ['KSEA', 'KPDX', 'KSFO', 'KLAX', 'KDEN', 'KORD', 'KJFK', 'KBOS'] as const;

/** What the script saw over one turn. */
export interface TurnProbe {
  /** Requests whose `messages` did not have the expected length (should stay empty). */
  problems: string[];
  /** Size of the last request's JSON body without `stream`: equal across designs when they send the same conversation. */
  lastRequestBytes: number;
  /** Characters of the first tool result the model received. */
  toolResultChars: number;
}

function messagesOf(req: RecordedRequest): unknown[] {
  const body = req.body as { messages?: unknown };
  return Array.isArray(body.messages) ? body.messages : [];
}

function firstToolResultChars(messages: readonly unknown[]): number {
  const user = messages[2] as { content?: Array<{ type?: string; content?: unknown }> } | undefined;
  const result = Array.isArray(user?.content) ? user.content.find((block) => block.type === 'tool_result') : undefined;
  return typeof result?.content === 'string' ? result.content.length : JSON.stringify(result?.content ?? '').length;
}

/** One turn's answers, in request order; `probe` says what the requests looked like. */
export interface ScriptedTurn {
  readonly probe: TurnProbe;
  answer(req: RecordedRequest): ScriptStep;
}

/** The answers for one user turn of `calls` model calls. */
export function scriptedTurn(calls: number): ScriptedTurn {
  const probe: TurnProbe = { problems: [], lastRequestBytes: 0, toolResultChars: 0 };
  let k = 0;
  return {
    probe,
    answer(req) {
      k += 1;
      const messages = messagesOf(req);
      // Call k sees the user's message plus k-1 (assistant tool_use, user tool_result) pairs.
      if (messages.length !== 2 * k - 1) probe.problems.push(`call ${k}: ${messages.length} messages, expected ${2 * k - 1}`);
      if (k === 2) probe.toolResultChars = firstToolResultChars(messages);
      if (k >= calls) {
        if (k > calls) probe.problems.push(`call ${k}: more calls than the ${calls} scripted`);
        // Without `stream`: the host streams its calls (`"stream": true`), the naive design does not.
        const body = { ...(req.body as Record<string, unknown>) };
        delete body.stream;
        probe.lastRequestBytes = Buffer.byteLength(JSON.stringify(body), 'utf8');
        return {
          kind: 'message',
          stop_reason: 'end_turn',
          content: [
            {
              type: 'text',
              text:
                `I compared ${calls - 1} hourly reports across ${Math.min(calls - 1, STATIONS.length)} stations. ` +
                'Temperatures stayed within a 14-degree band, winds were moderate with no gusts above 25 kt, and ' +
                'pressure held between 1003 and 1023 hPa, so no front passed through in this window. ' +
                'Visibility never dropped below 5 km; the overcast layers were the lowest ceilings recorded.',
            },
          ],
        };
      }
      const station = STATIONS[(k - 1) % STATIONS.length] ?? 'KSEA';
      return {
        kind: 'message',
        stop_reason: 'tool_use',
        content: [
          {
            type: 'text',
            text:
              `Reading ${k} of the series: I will pull the hourly observations for ${station} at report ${k} ` +
              'and compare temperature, wind and pressure with the readings I already have before summarising.',
          },
          { type: 'tool_use', name: 'station_report', input: { station, hour: k } },
        ],
      };
    },
  };
}
