import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { AppConfig } from '../config.js';

/**
 * The app whose server sent `request`: `appkey`'s app when the `authorization` header is `Bearer <its secretKey>`
 * (compared in constant time); undefined otherwise, which the caller answers with 401 "No permission".
 */
export function appOfBearer(apps: AppRegistry, appkey: string, request: FastifyRequest): AppConfig | undefined {
  const target = apps.byAppkey(appkey);
  return target && bearsSecret(request, target.secretKey) ? target : undefined;
}

/** Whether the `authorization` header of `request` is `Bearer <secret>`, compared in constant time. */
export function bearsSecret(request: FastifyRequest, secret: string): boolean {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  return bearer !== undefined && sameSecret(bearer, secret);
}

/** Compares secrets in constant time for equal lengths; a length mismatch is refused at once. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
