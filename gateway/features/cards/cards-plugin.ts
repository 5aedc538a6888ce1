import type { FastifyInstance } from 'fastify';
import type { AuthServices } from '../../auth/auth-services';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { cardRoutes } from './card-calls';
import { cardValidationRoutes } from './card-validation';

/**
 * SPEC §7 cards (ADR 0011): the card list, enrolment, removal and default card at the paths each site's `pan_capture`
 * gives, and the declared `assets/validation`.
 */
export async function cardsPlugin(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; auth: AuthServices }): Promise<void> {
  const { db, fixtures, auth } = options;
  await app.register(cardRoutes, { db, fixtures, auth });
  await app.register(cardValidationRoutes, { db, fixtures, auth });
}
