import type { FastifyInstance } from 'fastify';
import type { Fixtures } from '../../site-files/load-fixtures';
import { fromContract } from '../../http/route-contract';

/**
 * `GET site-gallery/sites`: every site fixture's id and name, for the site gallery (README "Architecture"),
 * where configuration authors and QA see each site's forms. Registered only with SITE_GALLERY=true.
 */
export async function siteGalleryRoutes(app: FastifyInstance, options: { fixtures: Fixtures }): Promise<void> {
  const sites = [...options.fixtures.sites.values()]
    .map(({ config }) => ({ siteId: config.siteId, name: config.name }))
    .sort((a, b) => a.siteId.localeCompare(b.siteId));
  app.route({ ...fromContract('GET /site-gallery/sites'), handler: async () => ({ sites }) });
}
