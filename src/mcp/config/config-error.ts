/** Where in an MCP configuration a problem was found. */
export interface McpConfigErrorLocation {
  /** The configuration file (or other origin) as the user named it. */
  source: string;
  /** The server entry's name, when the problem is inside one entry. */
  server?: string;
  /** The field inside the entry, as a path such as `url`, `args[2]` or `env.API_KEY`. */
  field?: string;
  /** The underlying error (file read failure, JSON syntax error). */
  cause?: unknown;
}

/**
 * A problem in an MCP configuration (mcp.json and friends).
 *
 * The message always names the source, and the server and field when known, e.g.
 * `mcp.json: server "weather": "url" is not a valid URL: "htp:/x"`, because the
 * person reading it is fixing a file by hand. Messages never contain the values of
 * `env` or `headers` entries: those are secrets.
 */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
  /** The configuration file (or other origin) the error is about. */
  readonly source: string;
  /** The server entry's name, when the problem is inside one entry. */
  readonly server?: string;
  /** The field path inside the server entry, e.g. `url` or `env.API_KEY`. */
  readonly field?: string;

  /**
   * @param detail What is wrong, without the location prefix (it is added here so that
   *   every message has the same shape).
   * @param location Where it is wrong.
   */
  constructor(detail: string, location: McpConfigErrorLocation) {
    const prefix =
      location.server === undefined
        ? `${location.source}: `
        : `${location.source}: server ${JSON.stringify(location.server)}: `;
    super(prefix + detail, location.cause === undefined ? undefined : { cause: location.cause });
    this.source = location.source;
    if (location.server !== undefined) this.server = location.server;
    if (location.field !== undefined) this.field = location.field;
  }
}
