import type { FastifyInstance } from 'fastify';
import type { Fixtures, OfferCategory } from '../../site-files/load-fixtures';
import { DEFAULT_LOCALE } from '../../locale';
import { fromContract } from '../../http/route-contract';

const FALLBACK_LANGUAGE = 'en';
/** SPEC §7: categories are chosen by language code, except Chinese which needs the full locale. */
const FULL_LOCALE_LANGUAGES = new Set(['zh']);

/**
 * SPEC §7 offer categories. These are page-root paths (`/offers/...`, `/offersdata/...`), not
 * gateway paths: the app fetches the customized file first and falls back to the categories API.
 */
export async function offersRoutes(app: FastifyInstance, options: { fixtures: Fixtures }): Promise<void> {
  const { offerCategories, customizedCategoriesRaw } = options.fixtures;

  app.route<{ Querystring: { locale?: string } }>({
    ...fromContract('GET /offers/api/categories'),
    handler: async (request): Promise<readonly OfferCategory[]> => {
      const locale = request.query.locale ?? DEFAULT_LOCALE;
      const language = locale.slice(0, 2);
      const key = FULL_LOCALE_LANGUAGES.has(language) ? locale : language;
      return offerCategories.get(key) ?? offerCategories.get(FALLBACK_LANGUAGE) ?? [];
    },
  });

  app.route({
    ...fromContract('GET /offersdata/customized-categories.json'),
    handler: async (_request, reply) => {
      reply.type('application/json; charset=utf-8');
      return customizedCategoriesRaw;
    },
  });
}
