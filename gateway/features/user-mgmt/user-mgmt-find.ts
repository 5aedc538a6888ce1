import type { FastifyInstance } from 'fastify';
import type { UserProfile } from '../../../schemas/entities/user-profile';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import { HttpError } from '../../http/errors';
import { readUserProfile } from '../../profile/user-profile';
import type { Clock } from '../../time/clock';

/** SPEC §7 `GET user-mgmt/user/find`: the signed-in user's profile; 401 without a session. */
export async function userMgmtFindRoutes(app: FastifyInstance, options: { db: Database; clock: Clock }): Promise<void> {
  const { db, clock } = options;
  app.get('/user-mgmt/user/find', { config: { access: 'signed-in' } }, async (request, reply): Promise<UserProfile> => {
    const user = await requireSessionUser(db, request, reply, clock.now());
    const profile = await readUserProfile(db, user.userId);
    // The session row cascades with its user, so this only happens in a race with a deletion.
    if (!profile) throw new HttpError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
    return profile;
  });
}
