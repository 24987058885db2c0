/**
 * Whether the namespace has the conversation search attributes registered
 * (src/workflows/progress-attributes.ts), and the values a new conversation starts with. A
 * conversation started with them keeps them current; one started without them (a namespace where
 * they are not registered) goes without, since starting with an unknown attribute fails.
 */
import type { Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import {
  PROGRESS_ATTRIBUTES,
  STATE_ATTRIBUTE,
  TOKENS_ATTRIBUTE,
  TOOL_CALLS_ATTRIBUTE,
  TURNS_ATTRIBUTE,
  WAITING_APPROVAL_ATTRIBUTE,
  WAITING_INPUT_ATTRIBUTE,
} from '../workflows/progress-attributes';

/** What the namespace has: every conversation attribute, and the optional waiting-input one. */
interface Registered {
  progress: boolean;
  waitingInput: boolean;
}

const registered = new WeakMap<Client, Promise<Registered>>();

async function ask(client: Client): Promise<Registered> {
  try {
    const { customAttributes } = await client.connection.operatorService.listSearchAttributes({ namespace: client.options.namespace });
    const has = (name: string): boolean => Object.hasOwn(customAttributes ?? {}, name);
    const progress = PROGRESS_ATTRIBUTES.every((key) => has(key.name));
    return { progress, waitingInput: progress && has(WAITING_INPUT_ATTRIBUTE.name) };
  } catch {
    // Not allowed to ask (a restricted API key) or an older server: go without, as on a namespace without them.
    return { progress: false, waitingInput: false };
  }
}

function registeredIn(client: Client): Promise<Registered> {
  let answer = registered.get(client);
  if (!answer) {
    answer = ask(client);
    registered.set(client, answer);
  }
  return answer;
}

/** True when every conversation search attribute is registered in the client's namespace (asked once per client). */
export async function progressAttributesRegistered(client: Client): Promise<boolean> {
  return (await registeredIn(client)).progress;
}

/** True when the optional `McpHostWaitingInput` attribute is registered too (namespaces set up before it may lack it). */
export async function waitingInputAttributeRegistered(client: Client): Promise<boolean> {
  return (await registeredIn(client)).waitingInput;
}

/** What a new conversation's search attributes say before its first turn. */
export function initialProgressAttributes(waitingInput = false): SearchAttributePair[] {
  return [
    ...(waitingInput ? [{ key: WAITING_INPUT_ATTRIBUTE, value: false }] : []),
    { key: STATE_ATTRIBUTE, value: 'idle' },
    { key: TURNS_ATTRIBUTE, value: 0 },
    { key: TOOL_CALLS_ATTRIBUTE, value: 0 },
    { key: TOKENS_ATTRIBUTE, value: 0 },
    { key: WAITING_APPROVAL_ATTRIBUTE, value: false },
  ];
}
