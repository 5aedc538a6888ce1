import type { FastifyInstance } from 'fastify';
import type { UserProfile } from '../../../schemas/entities/user-profile';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { copySiteProfileToUser } from '../../profile/user-profile';
import type { Clock } from '../../time/clock';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `POST user-mgmt/user/update` (empty body), ADR 0010: copies the global profile fields of the
 * session's site attributes (an X-SITE-ID of another site is refused, ADR 0017) into the profile and answers it. The
 * edit-profile screen calls it after saving the attributes. 403 PROFILE_UPDATE_NOT_ALLOWED on a site
 * whose `updatable` is "false" (SPEC §6).
 */
export async function userMgmtUpdateRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; clock: Clock }): Promise<void> {
  const { db, fixtures, clock } = options;
  // An empty body; whatever is sent, of any type, is read within the limit and dropped.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

  app.route({
    ...fromContract('POST /user-mgmt/user/update'),
    handler: async (request, reply): Promise<UserProfile> => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      return copySiteProfileToUser(db, fixtures, user.userId, user.siteId);
    },
  });
}
