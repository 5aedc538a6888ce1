import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { JobQueue } from '../../jobs/job-queue';
import type { Clock } from '../../time/clock';
import { conciergeRoutes } from './concierge';
import { conciergeAttributeRoutes } from './concierge-attributes';

/**
 * SPEC §6/§7 concierge (ADR 0014): a support agent's calls, `user-mgmt/user/find-concierge`,
 * `user-mgmt/user/concierge/…` (acting for a card holder, the audit) and `user-attribute/concierge/…`.
 */
export async function conciergePlugin(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; clock: Clock; jobs: JobQueue }): Promise<void> {
  const { db, fixtures, clock, jobs } = options;
  await app.register(conciergeRoutes, { db, fixtures, clock, jobs });
  await app.register(conciergeAttributeRoutes, { db, fixtures, clock, jobs });
}
