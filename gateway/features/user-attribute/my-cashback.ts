import type { FastifyInstance } from 'fastify';
import { offersCashbackStatement } from '../../../schemas/cards/card-config';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import type { CashbackStatement } from '../../../schemas/entities/cashback-statement';
import { readCashbackStatement } from '../../profile/cashback-statement';
import type { Clock } from '../../time/clock';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 declared `my-cashback`, as ADR 0010 designs it: `GET my-cashback/{siteId}`, the signed-in person's statement.
 * A site whose programme has no cashback (ADR 0001 `cashback_enabled` not "true") has no statement: 404
 * NO_CASHBACK_STATEMENT, never an empty statement that reads as "nothing earned yet".
 */
export async function myCashbackRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; clock: Clock }): Promise<void> {
  const { db, fixtures, clock } = options;
  app.route<{ Params: { siteId: string } }>({
    ...fromContract('GET /my-cashback/:siteId'),
    handler: async (request, reply): Promise<CashbackStatement> => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      const { siteId } = request.params;
      const site = fixtures.sites.get(siteId)?.config ?? fixtures.defaultSite.config;
      if (!offersCashbackStatement(site)) throw new HttpError(404, 'NO_CASHBACK_STATEMENT', `The programme of site ${siteId} has no cashback statement.`);
      return readCashbackStatement(db, user.userId, siteId);
    },
  });
}
