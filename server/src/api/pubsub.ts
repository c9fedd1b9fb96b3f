import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { AppRegistry } from '../auth/apps.js';
import { ServiceError } from '../errors.js';
import type { PubsubService } from '../pubsub/service.js';
import { appOfBearer } from './app-auth.js';
import { CODES, LIMITS, MESSAGES, PUBSUB_LIMITS, channelSchema, check, notificationSchema } from '../protocol.js';

const restPublishSchema = z.object({
  message: z
    .string({ error: MESSAGES.publishMessageRequired })
    .check(
      z.minLength(1, MESSAGES.publishMessageRequired),
      z.maxLength(LIMITS.publishMessageMaxLength, MESSAGES.publishMessageTooLong),
    ),
  qos: z.optional(z.union([z.literal(0), z.literal(1)], { error: MESSAGES.qosInvalid })),
  /** Shown by native clients; the rules of a socket publish's `nt` (PUB-4). */
  notification: z.optional(z.nullable(notificationSchema)),
  /** Optional idempotency key: an app server that retries a publish sends the same guid. */
  guid: z.optional(z.string().check(z.minLength(1), z.maxLength(PUBSUB_LIMITS.guidMaxLength))),
});

/**
 * PUB-16: `POST /api/v1/apps/:appkey/channels/:channel/messages` for app servers: `authorization: Bearer
 * <secretKey>`, body `{message, qos?, guid?, notification?}`; publishes as the server (no access token needed) and
 * answers `{code: 200, content: {time, guid}}`.
 */
export function pubsubRoutes(app: FastifyInstance, deps: { apps: AppRegistry; pubsub: PubsubService }): void {
  app.post<{ Params: { appkey: string; channel: string } }>(
    '/api/v1/apps/:appkey/channels/:channel/messages',
    async (request, reply) => {
      const target = appOfBearer(deps.apps, request.params.appkey, request);
      if (!target) {
        return reply.code(CODES.UNAUTHORIZED).send({ code: CODES.UNAUTHORIZED, content: MESSAGES.noPermission });
      }
      const channel = check(channelSchema, request.params.channel);
      if (!channel.ok) return reply.code(CODES.BAD_REQUEST).send({ code: channel.code, content: channel.content });
      const body = check(restPublishSchema, request.body);
      if (!body.ok) return reply.code(CODES.BAD_REQUEST).send({ code: body.code, content: body.content });
      try {
        const ack = await deps.pubsub.publish({
          app: target,
          userId: null,
          channel: channel.value,
          content: body.value.message,
          guid: body.value.guid ?? randomUUID().replace(/-/g, ''),
          qos: body.value.qos ?? 0,
          notification: body.value.notification,
          trusted: true,
        });
        return { code: CODES.OK, content: ack };
      } catch (err) {
        if (err instanceof ServiceError) return reply.code(err.code).send({ code: err.code, content: err.content });
        throw err;
      }
    },
  );
}
