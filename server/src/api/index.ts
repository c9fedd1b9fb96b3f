import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { Logger } from '../logger.js';
import { MESSAGES } from '../protocol.js';
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
  });
  app.setErrorHandler((error: { statusCode?: number; message?: string }, request, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({ code: status, content: MESSAGES.serverError });
    }
    return reply.code(status).send({ code: status, content: error.message ?? 'Bad request' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ code: 404, content: 'Not found' }));
  healthRoutes(app, deps.isShuttingDown);
  tokenRoutes(app, { apps: deps.apps, now: deps.now });
  appStaticRoutes(app, deps.appDir);
  return app;
}
