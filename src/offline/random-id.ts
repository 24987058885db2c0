import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * An id shaped like the real API's (`msg_…`, `toolu_…`, `req_…`): the prefix followed by
 * `length` random base62 characters. Crypto randomness so ids from parallel fakes never collide.
 */
export function randomId(prefix: string, length = 24): string {
  let id = prefix;
  for (let i = 0; i < length; i++) id += BASE62.charAt(randomInt(BASE62.length));
  return id;
}
