import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { TrustProxy } from '../config.js';
import type { Logger } from '../logger.js';
import { holdsNul } from '../nul.js';
import { CODES, MESSAGES, PUBSUB_LIMITS } from '../protocol.js';
import { appStaticRoutes } from './app-static.js';
import { healthRoutes } from './health.js';
import { tokenRoutes } from './tokens.js';

/** What the HTTP API needs. */
export interface HttpDeps {
  apps: AppRegistry;
  appDir: string;
  logger: Logger;
  now: () => number;
  isShuttingDown: () => boolean;
  /** Proxies whose `X-Forwarded-For` names the client (`request.ip`). @default false */
  trustProxy?: TrustProxy | undefined;
}

/**
 * Builds the fastify app: health, the product app at `/h5/`, and the API under `/api/v1/`. Every error reply
 * has the wire's `{code, content}` shape, including fastify's own (bad JSON, unknown route).
 */
export function createHttp(deps: HttpDeps): FastifyInstance {
  // Typed as fastify's base logger so that routes take a plain FastifyInstance; it is still our pino.
  const loggerInstance: FastifyBaseLogger = deps.logger;
  const app: FastifyInstance = Fastify({
    loggerInstance,
    forceCloseConnections: true,
    trustProxy: proxyTrust(deps.trustProxy ?? false),
    // A path parameter may be a whole channel name (PUB-16), percent-encoded: each of its 128 UTF-16 units is at
    // most three UTF-8 bytes (a pair of units is four), nine characters once encoded. The router's default, 100
    // characters, refused valid channels before their check could.
    routerOptions: { maxParamLength: PUBSUB_LIMITS.channelMaxLength * 9 },
    // Errors the router answers before any route runs (a malformed escape, a parameter past that bound).
    frameworkErrors: (error, request, reply) => {
      void replyError(error, request, reply);
    },
  });
  app.setErrorHandler(replyError);
  // PostgreSQL keeps no U+0000 in text: refused here for every route and store alike, as on the socket (REQ-10).
  app.addHook('preHandler', async (request, reply) => {
    if (holdsNul(request.body) || holdsNul(request.params)) {
      await reply.code(CODES.BAD_REQUEST).send({ code: CODES.BAD_REQUEST, content: MESSAGES.nulCharacter });
    }
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ code: 404, content: 'Not found' }));
  healthRoutes(app, deps.isShuttingDown);
  tokenRoutes(app, { apps: deps.apps, now: deps.now });
  appStaticRoutes(app, deps.appDir);
  return app;
}

/** Fastify's form of {@link TrustProxy}: a hop count becomes the function that trusts that many hops. */
function proxyTrust(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Answers an error in the wire's shape: its own status and message when the client caused it, else a logged 500. */
function replyError(error: { statusCode?: number; message?: string }, request: FastifyRequest, reply: FastifyReply) {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.code(status).send({ code: status, content: MESSAGES.serverError });
  }
  return reply.code(status).send({ code: status, content: error.message ?? 'Bad request' });
}
