import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import { CODES, MESSAGES } from '../protocol.js';
import type { AnnouncementEditResult, AnnouncementService } from '../shop/announcements.js';
import type { AnnouncementRecord } from '../store/index.js';
import { appOfBearer } from './app-auth.js';

/** An announcement as the operator keeps it: all of it. */
function announcementView(record: AnnouncementRecord) {
  return {
    id: record.id,
    title: record.title,
    content: record.content,
    pinned: record.pinned,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/**
 * The operator's announcements to sellers (spec §2 shop/business-gonggao), for the product app's server
 * (`authorization: Bearer <secretKey>` of the product app), at `/api/v1/apps/:appkey/shop-announcements`:
 *
 * - `GET ?after=` lists them pinned first, then the newest, twenty at a time, `after` the last id seen: `{id, title,
 *   content, pinned, createdAt, updatedAt}`.
 * - `POST` `{title, content, pinned?}` publishes one: a title of 1 to 50 characters on one line, content of 1 to
 *   5 000 characters of plain text, `pinned` true to list it first (false by default).
 * - `POST .../:id` changes any of `{title, content, pinned}`; members' reads of it stay.
 * - `DELETE .../:id` removes one, and every member's read of it.
 *
 * Answers are `{code, content}`: an unknown announcement is 404, a refused change 400 with the reason.
 */
export function operatorAnnouncementRoutes(
  app: FastifyInstance,
  deps: { apps: AppRegistry; appkey: string; announcements: AnnouncementService },
): void {
  const { announcements } = deps;
  const base = '/api/v1/apps/:appkey/shop-announcements';
  type Request = FastifyRequest<{ Params: { appkey: string; id?: string }; Querystring: Record<string, unknown> }>;
  const denied = { code: CODES.UNAUTHORIZED, content: MESSAGES.noPermission };
  const allowed = (request: Request) =>
    request.params.appkey === deps.appkey && appOfBearer(deps.apps, request.params.appkey, request) !== undefined;
  const answer = (reply: FastifyReply, result: AnnouncementEditResult) => {
    if (result.ok) return { code: CODES.OK, content: announcementView(result.value) };
    const code = result.failure === 'not_found' ? 404 : CODES.BAD_REQUEST;
    return reply.code(code).send({ code, content: result.message });
  };
  const edit =
    (change: (request: Request, fields: Record<string, unknown>) => Promise<AnnouncementEditResult>) =>
    async (request: Request, reply: FastifyReply) => {
      if (!allowed(request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
      const body: unknown = request.body ?? {};
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: 'body must be an object.' });
      }
      return answer(reply, await change(request, body as Record<string, unknown>));
    };

  app.get(base, async (request: Request, reply) => {
    if (!allowed(request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
    const page = await announcements.list(request.query['after']);
    if (!page.ok) return reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: page.message });
    return { code: CODES.OK, content: page.value.map(announcementView) };
  });
  app.post(
    base,
    edit((_request, fields) => announcements.add(fields)),
  );
  app.post(
    `${base}/:id`,
    edit((request, fields) => announcements.update(request.params.id as string, fields)),
  );
  app.delete(`${base}/:id`, async (request: Request, reply) => {
    if (!allowed(request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
    return answer(reply, await announcements.remove(request.params.id as string));
  });
}
