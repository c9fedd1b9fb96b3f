import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Shown at `/h5/` when the app has not been built, so that a fresh checkout explains itself. */
const PLACEHOLDER = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Parley</title></head>
<body>
<h1>The Parley app is not built yet</h1>
<p>The server is running, but there is no built app to serve here.</p>
<p>Build it from the repository root with <code>npm run build:app</code>, then reload this page.</p>
</body>
</html>
`;

/** Serves the built product app at `/h5/` (or a placeholder page) and redirects `/` to it. */
export function appStaticRoutes(app: FastifyInstance, appDir: string): void {
  app.get('/', (_request, reply) => reply.redirect('/h5/'));
  if (existsSync(appDir)) {
    void app.register(fastifyStatic, { root: appDir, prefix: '/h5/', redirect: true });
    return;
  }
  app.log.warn({ appDir }, 'app not built; serving a placeholder at /h5/');
  app.get('/h5/', (_request, reply) => reply.type('text/html; charset=utf-8').send(PLACEHOLDER));
  app.get('/h5', (_request, reply) => reply.redirect('/h5/'));
}
