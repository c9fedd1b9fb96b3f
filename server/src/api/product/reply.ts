import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MEMBER_FAILURE_TEXT, type MemberFailure } from '../../members/service.js';

/** The body every call carries (spec §7): the app's own fields plus `app`, `i18n` and, when logged in, `token`. */
export type ProductBody = Record<string, unknown>;

/** A product route handler: gets the JSON body, answers `{ret}` or `{err, code}`. */
export type ProductHandler = (body: ProductBody, request: FastifyRequest) => Promise<ProductAnswer>;

/** A product answer: the spec's `ret` on success, `err` (the message) and a stable `code` on refusal. */
export type ProductAnswer = { ret: unknown; [extra: string]: unknown } | { err: string; code: MemberFailure };

/** The refusal answer for a failure. */
export const refuse = (failure: MemberFailure): ProductAnswer => ({ err: MEMBER_FAILURE_TEXT[failure], code: failure });

/** How a product area registers its routes. */
export type ProductPost = (path: string, handler: ProductHandler) => void;

/**
 * Lets routes registered in `scope` take a form (`application/x-www-form-urlencoded`) as their body, as an object of
 * its fields: what media servers' hooks and payment providers post.
 */
export function acceptForms(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}
