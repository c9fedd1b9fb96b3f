/**
 * A failure a service reports on purpose, with the wire code and the message the client sees. The gateway and the
 * API turn it into a `{code, content}` reply; any other error becomes a 500 and is logged.
 */
export class ServiceError extends Error {
  /** Wire result code (400, 401, 429, ...). */
  readonly code: number;
  /** Message for the client, verbatim. */
  readonly content: string;

  constructor(code: number, content: string) {
    super(content);
    this.name = 'ServiceError';
    this.code = code;
    this.content = content;
  }
}
