import type { FastifyInstance } from 'fastify';
import type { AuthServices } from '../../auth/auth-services';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../fixtures/load-fixtures';
import type { JobQueue } from '../../jobs/job-queue';
import type { SsoCredentials } from '../../sso/client-credentials';
import { ssoRoutes } from './sso';
import { ssoLogoutRoutes } from './sso-logout';

/**
 * SPEC §7 OIDC sign-in (ADR 0015): `user-auth/oidc/authorize` and the OIDC variant of sign-out, `logout`. The test
 * identity provider these talk to in development is the development feature's.
 */
export async function ssoPlugin(
  app: FastifyInstance,
  options: {
    db: Database;
    fixtures: Fixtures;
    auth: AuthServices;
    jobs: JobQueue;
    gateway: FastifyInstance;
    development: boolean;
    credentials: SsoCredentials;
  },
): Promise<void> {
  await app.register(ssoRoutes, options);
  await app.register(ssoLogoutRoutes, options);
}
