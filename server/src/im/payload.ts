import { ServiceError } from '../errors.js';
import {
  CODES,
  LIMITS,
  MESSAGES,
  utf8ByteLength,
  type PublishImRequest,
  type PushedNotification,
} from '../protocol.js';

/**
 * Checks a `publishIM` payload before anything is stored, for chat and customer-service messages alike.
 *
 * - IM-27: the type and the payload together are at most 3 072 bytes of UTF-8 (`message-length limit 3kb`).
 * - IM-4: `p` must be JSON: receivers `JSON.parse` it, so one bad sender could break every receiver's client.
 * - IM-25: a `text` message holds `{text}`, a string that is not blank and at most 2 500 characters, the rule the
 *   SDK applies before sending (product spec §5), so that a client that skips it cannot store an empty or oversized
 *   text for everyone else.
 *
 * @throws ServiceError 400 with the spec's message.
 */
export function checkPayload(type: string, p: string): void {
  // IM-27: the type goes with every copy of the message as the payload does, so the 3 KB bound covers both, in UTF-8
  // bytes as the SDK and the reference count them.
  if (utf8ByteLength(type) + utf8ByteLength(p) > LIMITS.messageMaxBytes) {
    throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.messageTooLong);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(p);
  } catch {
    throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.payloadNotJson);
  }
  if (type !== 'text') return;
  const text = typeof payload === 'object' && payload !== null ? (payload as { text?: unknown }).text : undefined;
  if (typeof text !== 'string' || text.trim() === '') throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.textEmpty);
  if (text.length > LIMITS.textMaxLength) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.textTooLong);
}

/**
 * IM-26: a message's notification (validated by the request's schema, title and body bounded) as receivers' pushes
 * carry it, `{t: title, c: body}`, the shape of a pub/sub message's (PUB-4); undefined when there is none.
 */
export function wireNotification(nt: PublishImRequest['nt']): PushedNotification | undefined {
  return nt ? { t: nt.title ?? null, c: nt.body ?? null } : undefined;
}
