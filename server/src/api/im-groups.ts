import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { AppConfig } from '../config.js';
import { ServiceError } from '../errors.js';
import { assertIds } from '../ids.js';
import type { GroupService } from '../im/groups.js';
import type { UserDirectory } from '../im/users.js';
import { CODES, LIMITS, MESSAGES } from '../protocol.js';
import type { Actor } from '../push.js';
import { appOfBearer } from './app-auth.js';

type Params = { appkey: string; groupId: string; userId: string };

/**
 * IM-31: group membership kept by an app's server (`authorization: Bearer <secretKey>`):
 * - `GET /api/v1/apps/:appkey/groups/:groupId/members` answers `{code: 200, content: {members: [userId]}}`;
 * - `PUT .../members/:userId` makes the user a member, as their own `subscribeGroups` would (IM-20, IM-28), with no
 *   access token asked (IM-21);
 * - `DELETE .../members/:userId` ends it, as `unsubscribeGroup` would.
 * Both answer `{code: 200, content: null}`, also when nothing changed.
 */
export function imGroupRoutes(
  app: FastifyInstance,
  deps: { apps: AppRegistry; groups: GroupService; users: UserDirectory },
): void {
  const base = '/api/v1/apps/:appkey/groups/:groupId/members';

  /** The app of a request, or its 401 sent; and ids within the wire's bounds, or their 400 sent. */
  const appOf = async (request: FastifyRequest<{ Params: Partial<Params> }>, reply: FastifyReply) => {
    const target = appOfBearer(deps.apps, request.params.appkey ?? '', request);
    if (!target) {
      await reply.code(CODES.UNAUTHORIZED).send({ code: CODES.UNAUTHORIZED, content: MESSAGES.noPermission });
      return undefined;
    }
    const userId = request.params.userId;
    if (userId !== undefined && userId.length > LIMITS.userIdMaxLength) {
      await reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: MESSAGES.idTooLong });
      return undefined;
    }
    return target;
  };

  /** The user as the group's other members hear of them (GROUP_PRESENCE): with the data they last authorized with. */
  const actorOf = async (target: AppConfig, userId: string): Promise<Actor> => {
    const userData = (await deps.users.memberData(target.appkey, [userId]))[0]?.data ?? {};
    return { app: target, userId, userData, connectionId: '' };
  };

  /** Answers what `run` gives, or a service's refusal in its words. */
  const answer = async <T>(reply: FastifyReply, run: () => Promise<T>) => {
    try {
      return { code: CODES.OK, content: await run() };
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      return reply.code(err.code).send({ code: err.code, content: err.content });
    }
  };

  app.get<{ Params: Omit<Params, 'userId'> }>(base, async (request, reply) => {
    const target = await appOf(request, reply);
    if (!target) return reply;
    const { groupId } = request.params;
    return answer(reply, async () => {
      assertIds([groupId]);
      return { members: [...(await deps.groups.members(target.appkey, groupId))] };
    });
  });
  app.put<{ Params: Params }>(`${base}/:userId`, async (request, reply) => {
    const target = await appOf(request, reply);
    if (!target) return reply;
    const { groupId, userId } = request.params;
    return answer(reply, async () => {
      await deps.groups.subscribe(await actorOf(target, userId), [groupId], null, { trusted: true });
      return null;
    });
  });
  app.delete<{ Params: Params }>(`${base}/:userId`, async (request, reply) => {
    const target = await appOf(request, reply);
    if (!target) return reply;
    const { groupId, userId } = request.params;
    return answer(reply, async () => {
      await deps.groups.unsubscribe(await actorOf(target, userId), groupId);
      return null;
    });
  });
}
