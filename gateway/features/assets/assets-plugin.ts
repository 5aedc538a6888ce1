import type { FastifyInstance } from 'fastify';
import type { AuthServices } from '../../auth/auth-services';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../fixtures/load-fixtures';
import { assetsRoutes } from './assets';
import { assetsValidationRoutes } from './assets-validation';

/**
 * SPEC §7 cards (ADR 0011): the card list, enrolment, removal and default card at the paths each site's `pan_capture`
 * gives, and the declared `assets/validation`.
 */
export async function assetsPlugin(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; auth: AuthServices }): Promise<void> {
  const { db, fixtures, auth } = options;
  await app.register(assetsRoutes, { db, fixtures, auth });
  await app.register(assetsValidationRoutes, { db, fixtures, auth });
}
