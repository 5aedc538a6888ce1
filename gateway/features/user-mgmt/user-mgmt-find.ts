import type { FastifyInstance } from 'fastify';
import type { UserProfile } from '../../../schemas/entities/user-profile';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import type { Clock } from '../../time/clock';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `GET user-mgmt/user/find`: the signed-in user's profile; 401 without a session. The profile
 * comes with the session, in the access hook's one query (gateway/auth/session-store.ts).
 */
export async function userMgmtFindRoutes(app: FastifyInstance, options: { db: Database; clock: Clock }): Promise<void> {
  const { db, clock } = options;
  app.route({
    ...fromContract('GET /user-mgmt/user/find'),
    handler: async (request, reply): Promise<UserProfile> => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      return user.profile;
    },
  });
}
