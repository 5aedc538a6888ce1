import type { FastifyInstance } from 'fastify';
import { PROMOTIONS_SITE_PREFIX } from '../../../schemas/site-config/promotions-site';
import type { Fixtures } from '../../site-files/load-fixtures';
import { sendError } from '../../http/errors';
import { LOCALE_PATTERN } from '../../locale';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `GET {locale}/account/configurations/promotions-{locale}.json`, the promotions hosts'
 * variant of the site configuration (docs/decisions/0022-declared-calls.md): the site config of
 * `promotions_{locale}` (SPEC §1 "host plus locale for the promotions hosts"), the same document
 * `site-config-service/config/site/{siteId}` answers for that id, so the app reads one shape. A
 * page-root path like the offers files. Both locales must agree and name a promotions site; any
 * other is 404 PROMOTIONS_SITE_NOT_FOUND, never the default site, so a typo is not a silent brand swap.
 */
export async function promotionsConfigurationRoutes(app: FastifyInstance, options: { fixtures: Fixtures }): Promise<void> {
  const { sites } = options.fixtures;
  app.route<{ Params: { locale: string; file: string } }>({
    ...fromContract('GET /:locale/account/configurations/:file'),
    handler: async (request, reply) => {
      const { locale, file } = request.params;
      const site = LOCALE_PATTERN.test(locale) && file === `promotions-${locale}.json` ? sites.get(`${PROMOTIONS_SITE_PREFIX}${locale}`) : undefined;
      // The answer never echoes the path: it is whatever the caller typed.
      if (!site) return sendError(reply, 404, { error: 'PROMOTIONS_SITE_NOT_FOUND', message: 'No promotions site has a configuration at this path.' });
      reply.type('application/json; charset=utf-8');
      return site.raw;
    },
  });
}
