import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SITE_ID_PATTERN } from '../../../schemas/site-config/fixture-format';
import { siteBrandOf, siteStylesheet } from '../../../schemas/site-config/site-brand';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import { fromContract } from '../../http/route-contract';

const SITE_STYLESHEET_FILE = new RegExp(`${SITE_ID_PATTERN.slice(0, -1)}\\.css$`);
/** Fixtures are read once at start, so a stylesheet changes only with a restart; browsers check back after ten minutes. */
const STYLESHEET_CACHE = 'public, max-age=600';

interface Stylesheet {
  css: string;
  etag: string;
}

/**
 * `GET site-theme/{siteId}.css` (docs/decisions/0020-site-themes-and-brands.md): the site's brand
 * colours as CSS custom properties, linked by the app, so a brand needs no inline style under the
 * strict CSP. Built once from the checked fixtures; `siteStylesheet` writes only normalised hex
 * colours. Public like the site configuration it is made from. An unknown id is a 404 in JSON.
 */
export async function siteThemeRoutes(app: FastifyInstance, options: { fixtures: Fixtures }): Promise<void> {
  const { sites, defaultSite } = options.fixtures;
  const stylesheets = new Map<string, Stylesheet>();
  for (const { config } of [...sites.values(), defaultSite]) {
    const css = siteStylesheet(config.siteId, siteBrandOf(config));
    stylesheets.set(config.siteId, { css, etag: `"${createHash('sha256').update(css).digest('base64url').slice(0, 27)}"` });
  }

  // A wildcard, as the site-config service: an over-long or slash-containing name is just another unknown site.
  app.route<{ Params: { '*': string } }>({
    ...fromContract('GET /site-theme/*'),
    handler: async (request, reply) => {
      const file = request.params['*'];
      const stylesheet = SITE_STYLESHEET_FILE.test(file) ? stylesheets.get(file.slice(0, -'.css'.length)) : undefined;
      // The id is not echoed: the message is the same for every unknown name.
      if (!stylesheet) throw new HttpError(404, 'SITE_NOT_FOUND', 'There is no site stylesheet by this name: ask for site-theme/{siteId}.css of a known site.');
      reply.header('cache-control', STYLESHEET_CACHE).header('etag', stylesheet.etag);
      if (request.headers['if-none-match'] === stylesheet.etag) return reply.code(304).send();
      return reply.type('text/css; charset=utf-8').send(stylesheet.css);
    },
  });
}
