import type { FastifyInstance } from 'fastify';
import type { Fixtures } from '../../site-files/load-fixtures';
import { fromContract } from '../../http/route-contract';

const SITE_CONFIG_FALLBACK_HEADER = 'X-Site-Config-Fallback';

/**
 * SPEC §7 `GET site-config-service/config/site/{siteId}`: the site's fixture, byte for byte
 * (ADR 0001). An unknown or malformed id answers the default site with a marker header
 * ("failure falls back to default"), and never echoes the id it was given.
 */
export async function siteConfigServiceRoutes(app: FastifyInstance, options: { fixtures: Fixtures }): Promise<void> {
  const { sites, defaultSite } = options.fixtures;

  // A wildcard rather than `:siteId`: an over-long or slash-containing id is just another unknown site.
  app.route<{ Params: { '*': string } }>({
    ...fromContract('GET /site-config-service/config/site/*'),
    handler: async (request, reply) => {
      reply.type('application/json; charset=utf-8');
      const site = sites.get(request.params['*']);
      if (site) return site.raw;
      reply.header(SITE_CONFIG_FALLBACK_HEADER, 'default');
      return defaultSite.raw;
    },
  });
}
