import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { AppRegistry } from '../auth/apps.js';
import { ServiceError } from '../errors.js';
import type { MessageService } from '../im/messages.js';
import type { UserDirectory } from '../im/users.js';
import {
  CODES,
  LIMITS,
  MESSAGES,
  check,
  notificationSchema,
  jsonByteLength,
  userIdSchema,
  wireIdSchema,
} from '../protocol.js';
import { appOfBearer } from './app-auth.js';

const objectSchema = z.record(z.string(), z.unknown(), { error: MESSAGES.dataNotObjectIm });

/** The body of IM-30's send: who sends, to whom, and the message as the SDK's `create*Message` takes it. */
const sendSchema = z.object({
  from: z.object({
    id: z.pipe(
      userIdSchema,
      z.transform((v) => String(v).trim()),
    ),
    data: z.optional(objectSchema),
  }),
  to: z.object({
    type: z.enum(['private', 'group'], { error: MESSAGES.sceneNotSupported }),
    id: wireIdSchema,
    data: z.optional(objectSchema),
  }),
  type: z.string({ error: MESSAGES.typeEmpty }).check(z.trim(), z.minLength(1, MESSAGES.typeEmpty)),
  /** A custom message's payload is an object, a string or a number, not empty (spec §5); a text's is `{text}`. */
  payload: z.union(
    [z.record(z.string(), z.unknown()), z.string().check(z.minLength(1, MESSAGES.payloadEmpty)), z.number()],
    {
      error: MESSAGES.payloadEmpty,
    },
  ),
  /** The idempotency key: a send with one already stored answers its first timestamp and is not stored again. */
  messageId: z.optional(
    z.string().check(z.regex(/^[\w-]{1,64}$/, 'messageId must be 1 to 64 letters, digits, _ or -')),
  ),
  notification: z.optional(notificationSchema),
});

/**
 * IM-30: `POST /api/v1/apps/:appkey/messages` for app servers (`authorization: Bearer <secretKey>`): sends a private
 * or group message as the user `from.id`, stored and pushed as that user's `publishIM` would be (IM-3..IM-7, IM-15),
 * to every connection of the receivers and of the sender. Answers `{code: 200, content: {messageId, timestamp}}`.
 */
export function imMessageRoutes(
  app: FastifyInstance,
  deps: { apps: AppRegistry; messages: MessageService; users: UserDirectory },
): void {
  app.post<{ Params: { appkey: string } }>('/api/v1/apps/:appkey/messages', async (request, reply) => {
    const target = appOfBearer(deps.apps, request.params.appkey, request);
    if (!target) {
      return reply.code(CODES.UNAUTHORIZED).send({ code: CODES.UNAUTHORIZED, content: MESSAGES.noPermission });
    }
    const body = check(sendSchema, request.body);
    if (!body.ok) return reply.code(CODES.BAD_REQUEST).send({ code: body.code, content: body.content });
    const { from, to, type, payload, notification } = body.value;
    if (from.id === '')
      return reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: MESSAGES.idEmpty });
    // Who sends as the receivers see them: the data given, else what the user last authorized with.
    const userData = from.data ?? (await deps.users.memberData(target.appkey, [from.id]))[0]?.data ?? {};
    if (jsonByteLength(userData) > LIMITS.userDataMaxBytes) {
      return reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: MESSAGES.dataTooLong });
    }
    const messageId = body.value.messageId ?? randomUUID().replace(/-/g, '');
    try {
      const ack = await deps.messages.publish(
        // No connection of the sender's sent it, so every one of them hears of it.
        { app: target, userId: from.id, userData, connectionId: '' },
        {
          t: to.type,
          to: to.id,
          mt: type,
          p: JSON.stringify(payload),
          d: JSON.stringify(to.data ?? {}),
          guid: messageId,
          nt: notification ?? null,
        },
        { trusted: true },
      );
      return { code: CODES.OK, content: { messageId, timestamp: ack.timestamp } };
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      return reply.code(err.code).send({ code: err.code, content: err.content });
    }
  });
}
