import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { DrainState } from '../../http/draining';
import type { CounterStore } from '../../limits/counter-store';
import { contentRoutes } from './content';
import { formRoutes } from './forms';
import { healthRoutes } from './health';
import { offersRoutes } from './offers';
import { promotionsConfigurationRoutes } from './promotions-configuration';
import { siteConfigServiceRoutes } from './site-config-service';
import { siteGalleryRoutes } from './site-gallery';
import { siteThemeRoutes } from './site-theme';

/**
 * What the app reads before anyone signs in, under the gateway bases: SPEC §7 `site-config-service/config/site/{siteId}`,
 * the content (`bin/aem/rest`, `cmsapi`; ADR 0013), the site's theme (ADR 0020), a form's validation (ADR 0006), the
 * health, liveness and readiness (`health`, `health/live`, `health/ready`), and with SITE_GALLERY the gallery's site list. The site list is not development-only: it follows
 * `siteGallery` in either mode (ADR 0023's contract marks it `site-gallery`), as the gallery's pages do in `http/static-app.ts`.
 */
export async function contentConfigPlugin(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; siteGallery: boolean; counters: CounterStore | undefined; drain: DrainState },
): Promise<void> {
  const { db, fixtures } = options;
  await app.register(healthRoutes, { db, counters: options.counters, drain: options.drain });
  await app.register(siteConfigServiceRoutes, { fixtures });
  await app.register(siteThemeRoutes, { fixtures });
  await app.register(contentRoutes, { fixtures });
  await app.register(formRoutes, { fixtures });
  if (options.siteGallery) await app.register(siteGalleryRoutes, { fixtures });
}

/**
 * The same feature's page-root files (SPEC §7), registered on the root instance, not under a gateway base: the offer
 * categories (`/offers/…`, `/offersdata/…`) and the promotions hosts' configuration (`/{locale}/account/configurations/…`).
 */
export async function contentConfigPageRootPlugin(app: FastifyInstance, options: { fixtures: Fixtures }): Promise<void> {
  const { fixtures } = options;
  await app.register(offersRoutes, { fixtures });
  await app.register(promotionsConfigurationRoutes, { fixtures });
}
