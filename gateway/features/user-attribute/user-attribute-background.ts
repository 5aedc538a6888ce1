import type { FastifyInstance } from 'fastify';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import { HttpError } from '../../http/errors';
import type { Clock } from '../../time/clock';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `GET user-attribute/user/background/{siteId}` → `{ passesBackgroundCheck }`, the call
 * behind the app's auth machine (§4): true for an ACTIVE user, false for an INACTIVE one, 404
 * USER_NOT_FOUND when the user has no attributes on that site yet (the app then saves the site
 * locale and asks again), 401 without a session. Open while a breached password waits to be
 * replaced (ADR 0009), so the app still knows the person is signed in and can send them to do it.
 */
export async function userAttributeBackgroundRoutes(app: FastifyInstance, options: { db: Database; clock: Clock }): Promise<void> {
  const { db, clock } = options;
  app.route<{ Params: { siteId: string } }>({
    ...fromContract('GET /user-attribute/user/background/:siteId', { openWhilePasswordChangeRequired: true }),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      const result = await db.query<{ status: string }>(
        `select u.status from users u join user_sites s on s.user_id = u.id where u.id = $1 and s.site_id = $2`,
        [user.userId, request.params.siteId],
      );
      const row = result.rows[0];
      if (!row) throw new HttpError(404, 'USER_NOT_FOUND', 'The signed-in user has no profile on this site yet.');
      return { passesBackgroundCheck: row.status === 'ACTIVE' };
    },
  });
}
