import type { FastifyInstance } from 'fastify';
import { SITE_ID_PARAMS } from '../../../schemas/api/request-schemas';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import type { CashbackStatement } from '../../../schemas/entities/cashback-statement';
import { readCashbackStatement } from '../../profile/cashback-statement';
import type { Clock } from '../../time/clock';

/** SPEC §7 declared `my-cashback`, as ADR 0010 designs it: `GET my-cashback/{siteId}`, the signed-in person's statement. */
export async function myCashbackRoutes(app: FastifyInstance, options: { db: Database; clock: Clock }): Promise<void> {
  const { db, clock } = options;
  app.get<{ Params: { siteId: string } }>(
    '/my-cashback/:siteId',
    { config: { access: 'signed-in' }, schema: { params: SITE_ID_PARAMS } },
    async (request, reply): Promise<CashbackStatement> => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      return readCashbackStatement(db, user.userId, request.params.siteId);
    },
  );
}
