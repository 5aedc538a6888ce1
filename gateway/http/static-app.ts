import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound, pathOf, sendError } from './errors';
import { registerPluginWithAccess } from './route-access';
import { fromContract } from './route-contract';
import { precompressBuild } from './precompress-build';
import { loadServerPages, type ServerPages } from './server-pages';
import { SERVER_BUILD_FOLDER } from '../../schemas/pages/server-page';

/**
 * SPEC §2: the app's base paths are /{issuer}/{locale}/account/ and /{locale}/account/ (each with and without what
 * follows `account`); the site gallery's pages (README "Architecture") are the app's too when SITE_GALLERY is on.
 * Declared routes, so server rendering never runs from the not-found answer; their entries are in
 * schemas/api/routes.ts ("The app").
 */
const APP_PAGE_ROUTES = ['GET /:locale/account', 'GET /:locale/account/*', 'GET /:issuer/:locale/account', 'GET /:issuer/:locale/account/*'];
const GALLERY_PAGE_ROUTES = ['GET /gallery', 'GET /gallery/*'];
/**
 * The API bases are not the app's: find-my-way tries the page routes' `:issuer`/`:locale` after the API's own paths
 * fail, so `/api/x/account/y` would reach a page route.
 */
const API_PATH = /^\/(?:gateway\/)?api(?:\/|$)/;
/** SPEC §2/§9: default locale en_us; any unknown route goes to login. */
const HOME_REDIRECT = '/en_us/account/login';

/** Vite names files under assets/ by content hash, so they never change: cache them for a year. */
const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (index.html first) is revalidated, so a new build is picked up at once. */
const REVALIDATE = 'no-cache';

/**
 * Serves the Vite build from `distDir`: its files, each app page (server-rendered, or `index.html` for client-side
 * routing, SPEC §2, ADR 0024), and `/` -> the login page. Owns the server's not-found answer, since "not a file and
 * not a route" is decided here. Called on the root instance, not registered as a plugin.
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

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (API_PATH.test(pathOf(request))) return notFound(request, reply);
    if (!built) {
      return sendError(reply, 503, {
        error: 'APP_NOT_BUILT',
        message: 'The app is not built yet: run `npm run build` (or `npm start`, which builds it), then reload.',
      });
    }
    if (serverPages !== null && (await serverPages.send(request, reply))) return reply;
    return reply.code(200).sendFile('index.html');
  };
  for (const page of [...APP_PAGE_ROUTES, ...(options.siteGallery === true ? GALLERY_PAGE_ROUTES : [])]) {
    app.route({ ...fromContract(page), handler: sendPage });
  }

  app.setNotFoundHandler(notFound);
}
