import type { FastifyInstance } from 'fastify';
import type { AuthServices } from '../../auth/auth-services';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { JobQueue } from '../../jobs/job-queue';
import type { Clock } from '../../time/clock';
import { userMgmtAliasRoutes } from './user-mgmt-alias';
import { userMgmtFindRoutes } from './user-mgmt-find';
import { userMgmtPasscodeRoutes } from './user-mgmt-passcodes';
import { userMgmtPasswordRoutes } from './user-mgmt-passwords';
import { userMgmtPhoneProofRoutes } from './user-mgmt-phone-proof';
import { userMgmtRecoveryRoutes } from './user-mgmt-recovery';
import { userMgmtRegistrationRoutes } from './user-mgmt-registration';
import { userMgmtRemoveAccountRoutes } from './user-mgmt-remove-account';
import { userMgmtSessionRoutes } from './user-mgmt-sessions';
import { userMgmtSecureAccountRoutes } from './user-mgmt-secure-account';
import { userMgmtTotpRoutes } from './user-mgmt-totp';
import { userMgmtUpdateRoutes } from './user-mgmt-update';

/**
 * SPEC §7 `user-mgmt/user/…` of the card holder: the profile read and update (ADR 0010), registration, activation,
 * recovery, passwords, passcodes, authenticator set-up, the alias, a new phone's proof, the holder's signed-in devices (ADR 0025),
 * removing the account and securing it from a notice's link (ADR 0009, ADR 0021).
 * The agent's `user-mgmt/user/concierge/…` and `find-concierge` belong to the concierge feature.
 */
export async function userMgmtPlugin(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; clock: Clock; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, clock, auth, jobs } = options;
  await app.register(userMgmtUpdateRoutes, { db, fixtures, clock });
  await app.register(userMgmtFindRoutes, { db, clock });
  await app.register(userMgmtPasscodeRoutes, { db, fixtures, auth });
  await app.register(userMgmtTotpRoutes, { db, fixtures, auth, jobs });
  await app.register(userMgmtRegistrationRoutes, { db, fixtures, auth, jobs });
  await app.register(userMgmtRecoveryRoutes, { db, fixtures, auth, jobs });
  await app.register(userMgmtPasswordRoutes, { db, fixtures, auth, jobs });
  await app.register(userMgmtRemoveAccountRoutes, { db, fixtures, auth, jobs });
  await app.register(userMgmtAliasRoutes, { db, fixtures, auth, jobs });
  await app.register(userMgmtPhoneProofRoutes, { db, auth, jobs });
  await app.register(userMgmtSessionRoutes, { db, fixtures, auth });
  await app.register(userMgmtSecureAccountRoutes, { db, auth });
}
