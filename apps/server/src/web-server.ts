import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Config, REPO_ROOT } from './config';

export const WEB_DIST = join(REPO_ROOT, 'apps/web/dist');

/**
 * Serves the built web app on WEB_PORT: static files, `/env.js` with the API address the
 * browser should use, and index.html for every client-side route.
 */
export async function startWebServer(config: Config): Promise<FastifyInstance | undefined> {
  if (!config.SERVE_WEB) return undefined;
  const web = Fastify({ logger: false });
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    web.get('/*', async (_req, reply) =>
      reply
        .type('text/plain')
        .status(503)
        .send('The web app is not built yet: run `npm run build` (npm start does it).'),
    );
  } else {
    await web.register(fastifyStatic, { root: WEB_DIST, wildcard: false });
    web.setNotFoundHandler((request, reply) => {
      if (request.method !== 'GET' || /\.[a-z0-9]+$/i.test(request.url.split('?')[0]!)) {
        return reply.status(404).send('Not found');
      }
      return reply.sendFile('index.html');
    });
  }
  web.get('/env.js', async (_req, reply) =>
    reply
      .type('application/javascript')
      .header('cache-control', 'no-store')
      .send(`window.__ENV__ = ${JSON.stringify({ BACKEND_URL: config.BACKEND_URL ?? null })};`),
  );
  await web.listen({ port: config.WEB_PORT, host: config.host });
  return web;
}
