/** One HTTP request as the fake received it, kept so tests can assert what went over the wire. */
export interface RecordedRequest {
  method: string;
  /** The path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The parsed JSON body; the raw text when it was not valid JSON; `undefined` when empty. */
  body: unknown;
  /** `Date.now()` when the request's body had been read. */
  receivedAt: number;
}
