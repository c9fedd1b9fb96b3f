import type { FastifyInstance } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { UserEvents } from '../user-events.js';
import { appOfBearer } from './app-auth.js';
import { CODES, MESSAGES, check, userEventRequestSchema } from '../protocol.js';

/**
 * USER-1: `POST /api/v1/apps/:appkey/users/:userId/events` for app servers: `authorization: Bearer <secretKey>`, body
 * `{name, data?}` (`name` 1 to 64 characters, `data` any JSON of at most 4 KB); pushes `USER_EVENT` `{name, data,
 * time}` to every connection of the user and answers `{code: 200, content: {time}}`, whether or not the user is
 * connected.
 */
export function userEventRoutes(app: FastifyInstance, deps: { apps: AppRegistry; userEvents: UserEvents }): void {
  app.post<{ Params: { appkey: string; userId: string } }>(
    '/api/v1/apps/:appkey/users/:userId/events',
    async (request, reply) => {
      const target = appOfBearer(deps.apps, request.params.appkey, request);
      if (!target) {
        return reply.code(CODES.UNAUTHORIZED).send({ code: CODES.UNAUTHORIZED, content: MESSAGES.noPermission });
      }
      const body = check(userEventRequestSchema, request.body);
      if (!body.ok) return reply.code(CODES.BAD_REQUEST).send({ code: body.code, content: body.content });
      const sent = deps.userEvents.send({
        appkey: target.appkey,
        userId: request.params.userId,
        name: body.value.name,
        data: body.value.data,
      });
      if (!sent.ok) return reply.code(sent.code).send({ code: sent.code, content: sent.content });
      return { code: CODES.OK, content: { time: sent.time } };
    },
  );
}
