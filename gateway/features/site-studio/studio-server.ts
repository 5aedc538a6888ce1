import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { siteStudioRoutes, type StudioOptions } from './studio-routes';

/** The studio's pages: the app's `/studio` route (src/studio), compiled in with VITE_SITE_STUDIO=true. */
const STUDIO_PATH = /^\/studio(?:\/|$)/;

/**
 * What keeps the site studio from starting (docs/decisions/0027-site-studio.md): like the gateway's outbox reader
 * (ADR 0018), it exists in development only, since it writes site files; NODE_ENV unset counts as production, as for
 * the gateway.
 */
export function studioStartRefusals(env: Readonly<Record<string, string | undefined>>): string[] {
  const mode = env.NODE_ENV;
  if (mode === 'development' || mode === 'test') return [];
  return [
    `The site studio refuses to start in production mode (NODE_ENV=${mode ?? 'unset'}): it writes site files and exists in development only, like the outbox reader; run \`npm run studio\` (NODE_ENV=development) on an author's machine`,
  ];
}

/** The studio's one exposure, for the development banner (gateway/run-mode.ts `developmentBanner`). */
export function studioExposure(sitesDir: string): string {
  return `the site studio /studio and /api/site-studio/: anyone who reaches it reads every site file and writes ${sitesDir}/{siteId}.json`;
}

/** The studio's calls under /api and the built app (the studio's page) from `distDir`. */
export async function createStudioServer(options: StudioOptions & { distDir: string }): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 1_000_000 });
  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string; validation?: unknown }, _request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    const code = error.validation ? 'REQUEST_INVALID' : status === 500 ? 'STUDIO_FAILED' : (error.code ?? 'REQUEST_INVALID');
    return reply.code(status).send({ error: code, message: error.message });
  });
  await app.register(siteStudioRoutes, { ...options, prefix: '/api' });
  const root = resolve(options.distDir);
  const built = existsSync(join(root, 'index.html'));
  if (built) await app.register(fastifyStatic, { root, index: false });
  app.get('/', async (_request, reply) => reply.redirect('/studio', 302));
  app.setNotFoundHandler(async (request, reply) => {
    if (request.method !== 'GET' || !STUDIO_PATH.test(request.url))
      return reply.code(404).send({ error: 'NOT_FOUND', message: `No ${request.method} ${request.url}` });
    if (!built) return reply.code(503).send({ error: 'APP_NOT_BUILT', message: `No app build in ${root}: run \`npm run studio\`, which builds it` });
    return reply.sendFile('index.html');
  });
  return app;
}
