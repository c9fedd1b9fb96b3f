import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { ChannelEditResult, ChannelService } from '../content/channels.js';
import { CODES, MESSAGES } from '../protocol.js';
import type { ChannelRecord } from '../store/index.js';
import { appOfBearer } from './app-auth.js';

/** A channel as the operator manages it. */
const channelView = (channel: ChannelRecord) => ({
  id: channel.id,
  name: channel.name,
  position: channel.position,
  isDefault: channel.isDefault,
  createdAt: channel.createdAt,
});

/**
 * The operator's article channels (spec §2 article/typeid), for the product app's server: `authorization: Bearer
 * <secretKey>` of the product app. Answers are `{code, content}`.
 *
 * - `GET /api/v1/apps/:appkey/article-channels` lists them in their order: `{id, name, position, isDefault, createdAt}`.
 * - `POST /api/v1/apps/:appkey/article-channels` `{name, position?, isDefault?}` adds one: a name of 1 to 12 characters that
 *   no other channel has, at most 50 channels; `position` (0 to 10 000) places it, after the last by default;
 *   `isDefault` (true by default) shows it on the front page of members who have not chosen, and of visitors.
 * - `PATCH /api/v1/apps/:appkey/article-channels/:id` changes any of `{name, position, isDefault}`.
 * - `DELETE /api/v1/apps/:appkey/article-channels/:id` removes one: its articles stay, in no channel, and members' front
 *   pages lose it.
 *
 * An unknown channel is 404, a refused change 400 with the reason.
 */
export function operatorChannelRoutes(
  app: FastifyInstance,
  deps: { apps: AppRegistry; appkey: string; channels: ChannelService },
): void {
  const base = '/api/v1/apps/:appkey/article-channels';
  type Request = FastifyRequest<{ Params: { appkey: string; id?: string } }>;
  const denied = { code: CODES.UNAUTHORIZED, content: MESSAGES.noPermission };
  const allowed = (request: Request) =>
    request.params.appkey === deps.appkey && appOfBearer(deps.apps, request.params.appkey, request) !== undefined;
  const fieldsOf = (request: Request) => {
    const body: unknown = request.body ?? {};
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  };
  const answer = (reply: FastifyReply, result: ChannelEditResult) => {
    if (result.ok) return { code: CODES.OK, content: channelView(result.value) };
    const code = result.failure === 'not_found' ? 404 : CODES.BAD_REQUEST;
    return reply.code(code).send({ code, content: result.message });
  };
  const edit =
    (change: (request: Request, fields: Record<string, unknown>) => Promise<ChannelEditResult>) =>
    async (request: Request, reply: FastifyReply) => {
      if (!allowed(request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
      const fields = fieldsOf(request);
      if (!fields) {
        return reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: 'body must be an object.' });
      }
      return answer(reply, await change(request, fields));
    };

  app.get(base, async (request: Request, reply) => {
    if (!allowed(request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
    return { code: CODES.OK, content: (await deps.channels.all()).map(channelView) };
  });
  app.post(
    base,
    edit((_request, fields) => deps.channels.add(fields)),
  );
  app.patch(
    `${base}/:id`,
    edit((request, fields) => deps.channels.update(request.params.id as string, fields)),
  );
  app.delete(`${base}/:id`, async (request: Request, reply) => {
    if (!allowed(request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
    return answer(reply, await deps.channels.remove(request.params.id as string));
  });
}
