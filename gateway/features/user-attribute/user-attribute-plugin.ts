import type { FastifyInstance } from 'fastify';
import type { AuthServices } from '../../auth/auth-services';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { JobQueue } from '../../jobs/job-queue';
import { myCashbackRoutes } from './my-cashback';
import { userAttributeBackgroundRoutes } from './user-attribute-background';
import { userAttributeReadRoutes } from './user-attribute-read';
import { userAttributeSaveRoutes } from './user-attribute-save';
import { userAttributeSiteObjectRoutes } from './user-attribute-site-object';

/**
 * SPEC §7 `user-attribute/…` of the card holder: the per-site attributes, opt-ins and offer preferences, and the
 * background check (ADR 0010). The declared `my-cashback` is here too: ADR 0010 designs it as the signed-in person's
 * per-site statement read from the profile (`gateway/profile/`), not as a card call (its access is `signed-in`, the
 * card calls' `cardholder`). The card list under `user-attribute/user/assets` belongs to the assets feature, the
 * agent's `user-attribute/concierge/…` to the concierge feature.
 */
export async function userAttributePlugin(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, auth, jobs } = options;
  const { clock } = auth;
  await app.register(userAttributeBackgroundRoutes, { db, clock });
  // A new phone is told to the holder (ADR 0021 "Telling the holder"): these two saves queue its notices.
  await app.register(userAttributeSaveRoutes, { db, fixtures, auth, jobs });
  await app.register(userAttributeReadRoutes, { db, clock });
  await app.register(userAttributeSiteObjectRoutes, { db, fixtures, auth, jobs });
  await app.register(myCashbackRoutes, { db, fixtures, clock });
}
