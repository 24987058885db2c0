/** One HTTP request as the fake Messages API received it: what a test can assert went over the wire. */
export interface ReceivedRequest {
  method: string;
  /** The path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The parsed JSON body; the raw text when it was not valid JSON; `undefined` when empty. */
  body: unknown;
  /** `Date.now()` when the request's body had been read. */
  receivedAt: number;
  /** Size of the body as received, in bytes (what a log of requests holds on to). */
  bytes: number;
}
