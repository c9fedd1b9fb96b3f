import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { CatalogEditResult } from '../content/catalog.js';
import { CODES, MESSAGES } from '../protocol.js';
import { appOfBearer } from './app-auth.js';

/** A list the operator keeps for the product app (article channels, circle topics): how it lists, adds, changes. */
export interface Catalog<T> {
  /** The path under `/api/v1/apps/:appkey/`. */
  path: string;
  list(): Promise<T[]>;
  add(fields: Record<string, unknown>): Promise<CatalogEditResult<T>>;
  update(id: string, fields: Record<string, unknown>): Promise<CatalogEditResult<T>>;
  remove(id: string): Promise<CatalogEditResult<T>>;
  view(item: T): unknown;
}

/**
 * Registers the operator's routes of one catalog, for the product app's server (`authorization: Bearer <secretKey>`
 * of the product app): `GET /api/v1/apps/:appkey/<path>` lists it, `POST` the same path adds an item, `PATCH
 * .../<path>/:id` changes one, `DELETE .../<path>/:id` removes one. Answers are `{code, content}`: an unknown item is
 * 404, a refused change 400 with the reason, a body that is not an object 400.
 */
export function operatorCatalogRoutes<T>(
  app: FastifyInstance,
  deps: { apps: AppRegistry; appkey: string },
  catalog: Catalog<T>,
): void {
  const base = `/api/v1/apps/:appkey/${catalog.path}`;
  type Request = FastifyRequest<{ Params: { appkey: string; id?: string } }>;
  const denied = { code: CODES.UNAUTHORIZED, content: MESSAGES.noPermission };
  const allowed = (request: Request) =>
    request.params.appkey === deps.appkey && appOfBearer(deps.apps, request.params.appkey, request) !== undefined;
  const answer = (reply: FastifyReply, result: CatalogEditResult<T>) => {
    if (result.ok) return { code: CODES.OK, content: catalog.view(result.value) };
    const code = result.failure === 'not_found' ? 404 : CODES.BAD_REQUEST;
    return reply.code(code).send({ code, content: result.message });
  };
  const edit =
    (change: (request: Request, fields: Record<string, unknown>) => Promise<CatalogEditResult<T>>) =>
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
    return { code: CODES.OK, content: (await catalog.list()).map((item) => catalog.view(item)) };
  });
  app.post(
    base,
    edit((_request, fields) => catalog.add(fields)),
  );
  app.patch(
    `${base}/:id`,
    edit((request, fields) => catalog.update(request.params.id as string, fields)),
  );
  app.delete(`${base}/:id`, async (request: Request, reply) => {
    if (!allowed(request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
    return answer(reply, await catalog.remove(request.params.id as string));
  });
}
