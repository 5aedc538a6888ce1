import type { FastifyInstance } from 'fastify';
import { changeNoticeOf } from '../../account/account-notices';
import { phoneSaved } from '../../account/phone-proof';
import { assertContactPointsMayChange } from '../../auth/assurance';
import type { AuthServices } from '../../auth/auth-services';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { JobQueue } from '../../jobs/job-queue';
import { keysChangedBy, saveWholeSiteObject, type SiteAttributes } from '../../profile/site-attributes';
import { assertSiteObjectFor } from '../../profile/site-object-check';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `POST user-attribute/user/attribute/{siteId}` with the user site object minus vopUsers
 * (ADR 0010): saved whole at the `version` it was read (409 ATTRIBUTES_CHANGED otherwise), each
 * changed key checked with the site's rules. The site-settings screen saves offer preferences here. A new phone
 * is told to the account's address and the old phone (ADR 0021 "Telling the holder"), and counts for passcodes
 * only once the code texted to it comes back (ADR 0025 "A new phone is proved before it counts").
 */
export async function userAttributeSiteObjectRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, auth, jobs } = options;
  const { clock } = auth;
  app.route<{ Params: { siteId: string }; Body: { siteId: string; attributes: SiteAttributes; version: number } & Record<string, unknown> }>({
    ...fromContract('POST /user-attribute/user/attribute/:siteId'),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      const { siteId } = request.params;
      assertSiteObjectFor(siteId, request.body);
      const context = { fixtures, userId: user.userId, siteId, today: clock.now() };
      // ADR 0025: a new phone needs fresh proof.
      await assertContactPointsMayChange(db, fixtures, user, await keysChangedBy(db, context, request.body.attributes, true), clock.now());
      const change = changeNoticeOf(request, auth, user.userId, siteId);
      return saveWholeSiteObject(db, context, request.body.attributes, request.body.version, phoneSaved(jobs, reply, change));
    },
  });
}
