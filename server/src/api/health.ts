import type { FastifyInstance } from 'fastify';

/** `GET /health`: 200 `{status: 'ok'}` while serving, 503 `{status: 'shutting-down'}` once close has begun. */
export function healthRoutes(app: FastifyInstance, isShuttingDown: () => boolean): void {
  app.get('/health', async (_request, reply) => {
    if (isShuttingDown()) return reply.code(503).send({ status: 'shutting-down' });
    return { status: 'ok' };
  });
}
