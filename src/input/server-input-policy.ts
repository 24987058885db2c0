/**
 * What the host does when a server asks back (issue 27), set per server in mcp.json:
 * - `elicitation`: `ask` (default: the user answers the form or visits the URL) or `decline`
 *   (declined at once, nobody asked);
 * - `sampling`: `ask` (default: the user allows each completion first), `auto` (Claude answers at
 *   once) or `deny` (refused; the host then does not even declare the sampling capability to the server);
 * - `roots`: the file or other URIs the server may work in, answered to `roots/list` with the
 *   conversation's own roots (`start --root`).
 * The catalogue's routes carry the two policies when they differ from `ask`, so the workflow decides
 * from its history, never from the environment. Pure: the workflow sandbox imports it.
 */

export type ElicitationPolicy = 'ask' | 'decline';
export type SamplingPolicy = 'ask' | 'auto' | 'deny';

export const ELICITATION_POLICIES: readonly ElicitationPolicy[] = ['ask', 'decline'];
export const SAMPLING_POLICIES: readonly SamplingPolicy[] = ['ask', 'auto', 'deny'];

/** A server's settings for requests it makes, as read from mcp.json; absent fields take the defaults. */
export interface ServerInputSettings {
  elicitation?: ElicitationPolicy;
  sampling?: SamplingPolicy;
  roots?: string[];
}

/** The route fields that carry the policies (only when not `ask`, so catalogues without them are unchanged). */
export function routeInputPolicies(server: ServerInputSettings): { elicitation?: 'decline'; sampling?: 'auto' | 'deny' } {
  return {
    ...(server.elicitation === 'decline' ? { elicitation: 'decline' as const } : {}),
    ...(server.sampling === 'auto' || server.sampling === 'deny' ? { sampling: server.sampling } : {}),
  };
}
