import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { queueAccountNotice, type AccountNoticeJob } from '../../account/account-notices';
import { enrolledAsset, listAssets } from '../../cards/enrolled-assets';
import { assertContactPointsMayChange } from '../../auth/assurance';
import { readUserSiteForAgent, saveChangedForUser, saveContextOf, saveWholeForUser } from '../../concierge/acting-for-user';
import { requireActingFor } from '../../concierge/concierge-session';
import type { Database, Queryable } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { JobQueue } from '../../jobs/job-queue';
import { keysChangedBy, type SiteAttributes } from '../../profile/site-attributes';
import type { Clock } from '../../time/clock';
import { assertSiteObjectFor } from '../../profile/site-object-check';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 concierge user attributes and "concierge preferences" (ADR 0014): the card holder's calls of
 * ADR 0010/0011 for the user the agent acts for, on the agent's site, with the same bodies and rules;
 * each save is audited. The logic is in `gateway/concierge/` and `gateway/profile/`.
 */
export async function conciergeAttributeRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; clock: Clock; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, clock, jobs } = options;

  /**
   * The user acted for on `siteId`, and who calls; 409 NOT_ACTING_FOR_USER. The access hook (ADR 0017)
   * has refused everyone but an agent whose session is on `siteId`.
   */
  const actingForOn = async (request: FastifyRequest, reply: FastifyReply, siteId: string) => {
    const now = clock.now();
    const { agent, userId } = await requireActingFor(db, request, reply, now);
    const notify = (job: AccountNoticeJob, tx: Queryable) => queueAccountNotice(jobs, reply, job, tx);
    return { agent, userId, siteId, fixtures, correlationId: request.id, now, notify };
  };

  app.route<{ Params: { siteId: string } }>({
    ...fromContract('GET /user-attribute/concierge/user/:siteId'),
    handler: async (request, reply) => {
      const { userId, siteId } = await actingForOn(request, reply, request.params.siteId);
      return { userSites: { [siteId]: await readUserSiteForAgent(db, userId, siteId) } };
    },
  });

  app.route<{ Params: { siteId: string } }>({
    ...fromContract('GET /user-attribute/concierge/user/assets/:siteId'),
    handler: async (request, reply) => {
      const { userId, siteId, now } = await actingForOn(request, reply, request.params.siteId);
      // ADR 0011: an asset is its last four digits and product type; no card number exists to show.
      return (await listAssets(db, userId, siteId)).map((row) => enrolledAsset(row, now));
    },
  });

  app.route<{ Params: { siteId: string }; Body: { attributes: SiteAttributes; baseVersion?: number } }>({
    ...fromContract('POST /user-attribute/concierge/v2/user/:siteId'),
    handler: async (request, reply) => {
      const call = await actingForOn(request, reply, request.params.siteId);
      await assertContactPointsMayChange(db, fixtures, call.agent, await keysChangedBy(db, saveContextOf(call), request.body.attributes, false), call.now);
      return saveChangedForUser(db, call, request.body.attributes, request.body.baseVersion);
    },
  });

  app.route<{ Params: { siteId: string }; Body: { siteId: string; attributes: SiteAttributes; version: number } & Record<string, unknown> }>({
    ...fromContract('POST /user-attribute/concierge/user/attribute/:siteId'),
    handler: async (request, reply) => {
      const call = await actingForOn(request, reply, request.params.siteId);
      assertSiteObjectFor(call.siteId, request.body);
      await assertContactPointsMayChange(db, fixtures, call.agent, await keysChangedBy(db, saveContextOf(call), request.body.attributes, true), call.now);
      return saveWholeForUser(db, call, request.body.attributes, request.body.version);
    },
  });
}
