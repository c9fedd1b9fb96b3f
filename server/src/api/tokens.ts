import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { AppRegistry } from '../auth/apps.js';
import { issueOtp } from '../auth/otp.js';
import { appOfBearer } from './app-auth.js';
import { CODES, MESSAGES, check, userIdSchema } from '../protocol.js';

/** Longest otp an app server may ask for: 30 days. */
const MAX_OTP_TTL_MS = 2_592_000_000;

const otpRequestSchema = z.object({
  appkey: z.string().check(z.minLength(1, MESSAGES.appkeyEmpty)),
  userId: z.union([z.string().check(z.minLength(1, 'userId is required')), userIdSchema]),
  ttlMs: z.optional(
    z
      .int()
      .check(
        z.gte(1000, 'ttlMs must be from 1000 to 2592000000'),
        z.lte(MAX_OTP_TTL_MS, 'ttlMs must be from 1000 to 2592000000'),
      ),
  ),
});

/**
 * `POST /api/v1/tokens/otp` for app servers: `authorization: Bearer <secretKey>`, body `{appkey, userId, ttlMs?}`,
 * answers `{code: 200, content: {otp, expiresAt}}`.
 */
export function tokenRoutes(app: FastifyInstance, deps: { apps: AppRegistry; now: () => number }): void {
  app.post('/api/v1/tokens/otp', async (request, reply) => {
    const checked = check(otpRequestSchema, request.body);
    if (!checked.ok) return reply.code(CODES.BAD_REQUEST).send({ code: checked.code, content: checked.content });
    const target = appOfBearer(deps.apps, checked.value.appkey, request);
    if (!target) {
      return reply.code(CODES.UNAUTHORIZED).send({ code: CODES.UNAUTHORIZED, content: MESSAGES.noPermission });
    }
    const issued = issueOtp({
      secretKey: target.secretKey,
      userId: checked.value.userId,
      ttlMs: checked.value.ttlMs,
      now: deps.now(),
    });
    return { code: CODES.OK, content: issued };
  });
}
