import type { FastifyInstance, FastifyRequest } from 'fastify';
import { queueAccountNotice, type AccountNoticeJob } from '../../account/account-notices';
import type { UserProfile } from '../../../schemas/entities/user-profile';
import {
  expireSupportDetailsCookie,
  readActingFor,
  setSupportDetailsCookie,
  startActingFor,
  stopActingFor,
  type ActingFor,
  type AgentCall,
} from '../../concierge/act-for';
import { updateProfileForUser } from '../../concierge/acting-for-user';
import { listAgentAudit, type AuditRecord } from '../../concierge/concierge-audit';
import { requireActingFor, requireAgent } from '../../concierge/concierge-session';
import type { SessionUser } from '../../auth/session-store';
import type { Database, Queryable } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { JobQueue } from '../../jobs/job-queue';
import { HttpError } from '../../http/errors';
import { readUserProfile } from '../../profile/user-profile';
import type { Clock } from '../../time/clock';
import { fromContract } from '../../http/route-contract';

/**
 * ADR 0014: the agent chooses the card holder to act for, reads their profile (SPEC §7
 * `find-concierge`), copies their profile fields, and reads their own audit trail. The logic is in
 * `gateway/concierge/`; every route answers 401 without a session and 403 NOT_CONCIERGE to a card holder.
 */
export async function conciergeRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; clock: Clock; jobs: JobQueue }): Promise<void> {
  const { db, fixtures, clock, jobs } = options;
  const agentCall = (request: FastifyRequest, agent: SessionUser, now: Date): AgentCall => ({ agent, correlationId: request.id, now });

  app.route({
    ...fromContract('GET /user-mgmt/user/concierge/act-for'),
    handler: async (request, reply): Promise<{ actingFor: ActingFor | null }> => {
      const { actingForUserId } = await requireAgent(db, request, reply, clock.now());
      return { actingFor: await readActingFor(db, actingForUserId) };
    },
  });

  app.route<{ Body: { email: string } }>({
    ...fromContract('POST /user-mgmt/user/concierge/act-for'),
    handler: async (request, reply): Promise<{ actingFor: ActingFor }> => {
      const now = clock.now();
      const { agent } = await requireAgent(db, request, reply, now);
      const actingFor = await startActingFor(db, agentCall(request, agent, now), request.body.email);
      setSupportDetailsCookie(request, reply, agent, actingFor);
      return { actingFor };
    },
  });

  app.route({
    ...fromContract('GET /user-mgmt/user/concierge/audit'),
    handler: async (request, reply): Promise<{ entries: AuditRecord[] }> => {
      const { agent } = await requireAgent(db, request, reply, clock.now());
      return { entries: await listAgentAudit(db, agent.userId) };
    },
  });

  app.route({
    ...fromContract('GET /user-mgmt/user/find-concierge'),
    handler: async (request, reply): Promise<UserProfile> => {
      const { userId } = await requireActingFor(db, request, reply, clock.now());
      const profile = await readUserProfile(db, userId);
      // acting_for_user_id is set null with its user, so this only happens in a race with a deletion.
      if (!profile) throw new HttpError(409, 'NOT_ACTING_FOR_USER', 'Choose the card holder to act for first.');
      return profile;
    },
  });

  // Calls without a body: whatever is sent, of any type, is read within the limit and dropped.
  await app.register(async (emptyBody) => {
    emptyBody.removeAllContentTypeParsers();
    emptyBody.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

    emptyBody.route({
      ...fromContract('POST /user-mgmt/user/concierge/stop-acting'),
      handler: async (request, reply): Promise<{ actingFor: null }> => {
        const now = clock.now();
        const { agent, actingForUserId } = await requireAgent(db, request, reply, now);
        await stopActingFor(db, agentCall(request, agent, now), actingForUserId);
        expireSupportDetailsCookie(request, reply);
        return { actingFor: null };
      },
    });

    emptyBody.route({
      ...fromContract('POST /user-mgmt/user/concierge/update'),
      handler: async (request, reply): Promise<UserProfile> => {
        const now = clock.now();
        const { agent, userId } = await requireActingFor(db, request, reply, now);
        // As `user-mgmt/user/update` (ADR 0010) on the session's site: the access hook refused any other X-SITE-ID.
        const notify = (job: AccountNoticeJob, tx: Queryable) => queueAccountNotice(jobs, reply, job, tx);
        return updateProfileForUser(db, { ...agentCall(request, agent, now), fixtures, userId, siteId: agent.siteId, notify });
      },
    });
  });
}
