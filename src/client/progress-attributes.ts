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
} from '../workflows/progress-attributes';

const registered = new WeakMap<Client, Promise<boolean>>();

async function ask(client: Client): Promise<boolean> {
  try {
    const { customAttributes } = await client.connection.operatorService.listSearchAttributes({ namespace: client.options.namespace });
    return PROGRESS_ATTRIBUTES.every((key) => Object.hasOwn(customAttributes ?? {}, key.name));
  } catch {
    // Not allowed to ask (a restricted API key) or an older server: go without, as on a namespace without them.
    return false;
  }
}

/** True when every conversation search attribute is registered in the client's namespace (asked once per client). */
export function progressAttributesRegistered(client: Client): Promise<boolean> {
  let answer = registered.get(client);
  if (!answer) {
    answer = ask(client);
    registered.set(client, answer);
  }
  return answer;
}

/** What a new conversation's search attributes say before its first turn. */
export function initialProgressAttributes(): SearchAttributePair[] {
  return [
    { key: STATE_ATTRIBUTE, value: 'idle' },
    { key: TURNS_ATTRIBUTE, value: 0 },
    { key: TOOL_CALLS_ATTRIBUTE, value: 0 },
    { key: TOKENS_ATTRIBUTE, value: 0 },
    { key: WAITING_APPROVAL_ATTRIBUTE, value: false },
  ];
}
