import type { FastifyInstance } from 'fastify';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import { readUserSite, type UserSiteRecord } from '../../profile/site-attributes';
import type { Clock } from '../../time/clock';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `GET user-attribute/user/{siteId}` → `userSites[siteId].attributes`, with the `version` a
 * save starts from (ADR 0010); a user with no attributes on the site gets `{}` and version 0.
 */
export async function userAttributeReadRoutes(app: FastifyInstance, options: { db: Database; clock: Clock }): Promise<void> {
  const { db, clock } = options;
  app.route<{ Params: { siteId: string } }>({
    ...fromContract('GET /user-attribute/user/:siteId'),
    handler: async (request, reply): Promise<{ userSites: Record<string, UserSiteRecord> }> => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      const { siteId } = request.params;
      return { userSites: { [siteId]: await readUserSite(db, user.userId, siteId) } };
    },
  });
}
