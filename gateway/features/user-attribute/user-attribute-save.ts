import type { FastifyInstance } from 'fastify';
import { changeNoticeOf } from '../../account/account-notices';
import { phoneSaved } from '../../account/phone-proof';
import { assertContactPointsMayChange } from '../../auth/assurance';
import type { AuthServices } from '../../auth/auth-services';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { JobQueue } from '../../jobs/job-queue';
import { keysChangedBy, saveChangedAttributes, type SiteAttributes } from '../../profile/site-attributes';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `POST user-attribute/v2/user/{siteId}` `{ attributes, baseVersion? }` (ADR 0010 "Saving only
 * what changed"): the edit-profile screen sends the keys the person changed; the app's auth machine
 * sends `{ locale }` after USER_NOT_FOUND (§4), which gives the user a profile on that site. The XSRF
 * double submit is checked for every state-changing call of the API scope (`http/xsrf.ts`, ADR 0008). A new
 * phone needs fresh proof (ADR 0025), and is told to the account's address and the old phone (ADR 0021 "Telling
 * the holder"), and counts for passcodes only once the code texted to it comes back (ADR 0025 "A new phone is
 * proved before it counts").
 */
export async function userAttributeSaveRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, auth, jobs } = options;
  const { clock } = auth;
  app.route<{ Params: { siteId: string }; Body: { attributes: SiteAttributes; baseVersion?: number } }>({
    ...fromContract('POST /user-attribute/v2/user/:siteId'),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      const context = { fixtures, userId: user.userId, siteId: request.params.siteId, today: clock.now() };
      await assertContactPointsMayChange(db, fixtures, user, await keysChangedBy(db, context, request.body.attributes, false), clock.now());
      const change = changeNoticeOf(request, auth, user.userId, context.siteId);
      return saveChangedAttributes(db, context, request.body.attributes, request.body.baseVersion, phoneSaved(jobs, reply, change));
    },
  });
}
