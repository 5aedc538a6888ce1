import type { FastifyInstance } from 'fastify';
import type { AuthServices } from '../../auth/auth-services';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { JobQueue } from '../../jobs/job-queue';
import { hcaptchaVerificationRoutes } from './hcaptcha-verification';
import { userAuthOtpVerifyRoutes } from './user-auth-otp-verify';
import { userAuthRevokeRoutes } from './user-auth-revoke';
import { userAuthSessionTokenRoutes } from './user-auth-session-tokens';
import { userAuthSignInRoutes } from './user-auth-sign-in';

/**
 * SPEC §7 `user-auth/…` (ADR 0008): sign-in, the session's tokens, one-time codes, sign-out, and the declared
 * `internal/hcaptcha/verification`, which §7 lists among the user-auth calls and which lives at their path (ADR 0013).
 * The OIDC calls under `user-auth/oidc` belong to the sso feature.
 */
export async function userAuthPlugin(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue }): Promise<void> {
  const { db, fixtures, auth, jobs } = options;
  await app.register(userAuthSignInRoutes, { db, fixtures, auth, jobs });
  await app.register(userAuthRevokeRoutes, { db, auth });
  await app.register(userAuthSessionTokenRoutes, { db, auth });
  await app.register(userAuthOtpVerifyRoutes, { db, auth });
  await app.register(hcaptchaVerificationRoutes, { auth });
}
