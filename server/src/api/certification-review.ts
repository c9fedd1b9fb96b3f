import type { FastifyInstance } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { CertificationService } from '../members/certifications.js';
import { CODES, MESSAGES } from '../protocol.js';
import type { CertificationRecord } from '../store/index.js';
import { appOfBearer } from './app-auth.js';

/** A submission as the operator reviews it: everything, the full number and the photos too. */
function reviewObject(record: CertificationRecord) {
  return {
    memberId: record.memberId,
    type: record.type,
    name: record.name,
    number: record.number,
    images: record.images,
    status: record.status,
    reason: record.reason,
    submittedAt: record.submittedAt,
    reviewedAt: record.reviewedAt ?? null,
  };
}

/**
 * The operator's review of real-name certifications (spec §4: under review for 1 to 3 working days, then failed with
 * a reason or passed), for the product app's server: `authorization: Bearer <secretKey>` of the product app.
 * - `GET /api/v1/apps/:appkey/certifications?status=pending&after=<memberId>` answers `{code: 200, content:
 *   [submission]}`, oldest first, fifty at a time (`status`: `pending`, the default, `failed` or `passed`).
 * - `POST /api/v1/apps/:appkey/certifications/:memberId/review` with `{pass, reason?, submittedAt}` answers
 *   `{code: 200, content: submission}`: `reason` (1 to 100 characters) when failing; `submittedAt` the time of the
 *   submission reviewed, so that a review never lands on a newer one (404 when that one is not under review).
 */
export function certificationReviewRoutes(
  app: FastifyInstance,
  deps: { apps: AppRegistry; appkey: string; certifications: CertificationService },
): void {
  const allowed = (appkey: string, request: Parameters<typeof appOfBearer>[2]) =>
    appkey === deps.appkey && appOfBearer(deps.apps, appkey, request) !== undefined;
  const denied = { code: CODES.UNAUTHORIZED, content: MESSAGES.noPermission };

  app.get<{ Params: { appkey: string }; Querystring: Record<string, unknown> }>(
    '/api/v1/apps/:appkey/certifications',
    async (request, reply) => {
      if (!allowed(request.params.appkey, request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
      const page = await deps.certifications.list(request.query['status'], request.query['after']);
      if (!page.ok) return reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: page.message });
      return { code: CODES.OK, content: page.value.map(reviewObject) };
    },
  );

  app.post<{ Params: { appkey: string; memberId: string } }>(
    '/api/v1/apps/:appkey/certifications/:memberId/review',
    async (request, reply) => {
      if (!allowed(request.params.appkey, request)) return reply.code(CODES.UNAUTHORIZED).send(denied);
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: 'body must be an object.' });
      }
      const fields = body as Record<string, unknown>;
      const result = await deps.certifications.review(request.params.memberId, {
        pass: fields['pass'],
        reason: fields['reason'],
        submittedAt: fields['submittedAt'],
      });
      if (result.ok) return { code: CODES.OK, content: reviewObject(result.value) };
      const code = result.failure === 'not_pending' ? 404 : CODES.BAD_REQUEST;
      return reply.code(code).send({ code, content: result.message });
    },
  );
}
