import type { FastifyInstance } from 'fastify';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import type { CashbackStatement } from '../../../schemas/entities/cashback-statement';
import { readCashbackStatement } from '../../profile/cashback-statement';
import type { Clock } from '../../time/clock';
import { fromContract } from '../../http/route-contract';

/** SPEC §7 declared `my-cashback`, as ADR 0010 designs it: `GET my-cashback/{siteId}`, the signed-in person's statement. */
export async function myCashbackRoutes(app: FastifyInstance, options: { db: Database; clock: Clock }): Promise<void> {
  const { db, clock } = options;
  app.route<{ Params: { siteId: string } }>({
    ...fromContract('GET /my-cashback/:siteId'),
    handler: async (request, reply): Promise<CashbackStatement> => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      return readCashbackStatement(db, user.userId, request.params.siteId);
    },
  });
}
