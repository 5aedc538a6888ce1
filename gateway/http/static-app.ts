import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound, pathOf, sendError } from './errors';
import { registerPluginWithAccess } from './route-access';
import { precompressBuild } from './precompress-build';
import { loadServerPages, type ServerPages } from './server-pages';
import { SERVER_BUILD_FOLDER } from '../../schemas/pages/server-page';
import { fromContract } from './route-contract';

/** SPEC §2: the app's base paths are /{issuer}/{locale}/account/ and /{locale}/account/. */
const APP_PATH = /^\/(?:[^/]+\/){1,2}account(?:\/|$)/;
const API_PATH = /^\/(?:gateway\/)?api(?:\/|$)/;
/** The site gallery's pages (README "Architecture"), an app route only when SITE_GALLERY is on. */
const GALLERY_PATH = /^\/gallery(?:\/|$)/;
/** SPEC §2/§9: default locale en_us; any unknown route goes to login. */
const HOME_REDIRECT = '/en_us/account/login';

/** Vite names files under assets/ by content hash, so they never change: cache them for a year. */
const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (index.html first) is revalidated, so a new build is picked up at once. */
const REVALIDATE = 'no-cache';

function isAppPath(path: string, siteGallery: boolean): boolean {
  return (APP_PATH.test(path) || (siteGallery && GALLERY_PATH.test(path))) && !API_PATH.test(path);
}

/**
 * Serves the Vite build from `distDir`: its files, `index.html` for every app route (client-side
 * routing, SPEC §2), and `/` -> the login page. Owns the server's not-found answer, since "not a
 * file and not a route" is decided here. Called on the root instance, not registered as a plugin.
 */
export async function registerStaticApp(app: FastifyInstance, distDir: string | undefined, options: { siteGallery?: boolean } = {}): Promise<void> {
  const root = distDir === undefined ? undefined : resolve(distDir);
  const built = root !== undefined && existsSync(join(root, 'index.html'));

  app.route({ ...fromContract('GET /'), handler: async (_request, reply) => reply.redirect(HOME_REDIRECT, 302) });

  let serverPages: ServerPages | null = null;
  if (built) {
    const assetsDir = join(root, 'assets') + sep;
    await precompressBuild(root);
    serverPages = await loadServerPages(app, root);
    // The app's files are for anyone (ADR 0017).
    await registerPluginWithAccess(app, 'public', () =>
      app.register(fastifyStatic, {
        root,
        index: false,
        cacheControl: false,
        preCompressed: true,
        // The app's server build is the gateway's to run, not anyone's to download (ADR 0024).
        allowedPath: (pathName) => !pathName.startsWith(`/${SERVER_BUILD_FOLDER}/`),
        setHeaders: (reply, filePath) => {
          reply.header('cache-control', filePath.startsWith(assetsDir) ? HASHED_ASSET_CACHE : REVALIDATE);
        },
      }),
    );
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const isPageRequest = request.method === 'GET' || request.method === 'HEAD';
    if (!isPageRequest || !isAppPath(pathOf(request), options.siteGallery === true)) return notFound(request, reply);
    if (!built) {
      return sendError(reply, 503, {
        error: 'APP_NOT_BUILT',
        message: 'The app is not built yet: run `npm run build` (or `npm start`, which builds it), then reload.',
      });
    }
    if (serverPages !== null && (await serverPages.send(request, reply))) return reply;
    return reply.code(200).sendFile('index.html');
  });
}
