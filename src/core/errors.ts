import { CODES, MESSAGES, failureOf, type MessageKey } from '../protocol/index.js';

/**
 * The one error type the SDK rejects with. `code` is a wire result code ({@link CODES}); `content` is the
 * human-readable message, in the spec's words wherever it names one.
 */
export class ParleyError extends Error {
  /** Result code: 400 bad input, 401 no permission, 408 timeout or connect failure, 409 not connected, 500 server. */
  readonly code: number;
  /** The message, as the reference client words it. */
  readonly content: string;

  constructor(code: number, content: string) {
    super(content);
    this.name = 'ParleyError';
    this.code = code;
    this.content = content;
  }

  /** An error from the shared message table. */
  static of(code: number, key: MessageKey): ParleyError {
    return new ParleyError(code, MESSAGES[key]);
  }

  /** A 400 error from the shared message table. */
  static badRequest(key: MessageKey): ParleyError {
    return ParleyError.of(CODES.BAD_REQUEST, key);
  }

  /** Converts a failed acknowledgement from the server. */
  static fromAck(ack: unknown): ParleyError {
    const { code, content } = failureOf(ack);
    return new ParleyError(code, content);
  }

  /** Converts anything thrown at a boundary; a ParleyError passes through unchanged. */
  static from(error: unknown): ParleyError {
    if (error instanceof ParleyError) return error;
    const content = error instanceof Error ? error.message : String(error);
    return new ParleyError(CODES.SERVER_ERROR, content);
  }

  /** A plain `{code, content}` object, the shape the reference's callbacks receive. */
  toJSON(): { code: number; content: string } {
    return { code: this.code, content: this.content };
  }
}
