import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { noticeOrigin, queueAccountNotice } from '../../account/account-notices';
import { assertAcceptableNewPassword, assertPasswordRules, replacePassword } from '../../account/new-password';
import type { AuthServices } from '../../auth/auth-services';
import { assertPasswordChangeOffered, sessionSiteConfig } from '../../auth/credential-rules';
import { requireSessionUser } from '../../auth/session-cookies';
import type { SessionUser } from '../../auth/session-store';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import type { JobQueue } from '../../jobs/job-queue';
import { verifyPassword } from '../../security/password-hashing';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `change-password` and `vba/compromised-password`, as ADR 0009 "Passwords" fixes them.
 * Both keep the caller's session and revoke every other one of the user. An SSO person has no
 * password here to change (ADR 0015).
 */
export async function userMgmtPasswordRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, auth, jobs } = options;
  const passwordHashOf = async (userId: string): Promise<string> =>
    (await db.query<{ password_hash: string }>('select password_hash from users where id = $1', [userId])).rows[0]?.password_hash ?? '';

  // The person hears of every new password, in case it was not them (docs/decisions/0021-backup-codes-and-account-notices.md).
  const noticePasswordChanged = (request: FastifyRequest, reply: FastifyReply, user: SessionUser) =>
    queueAccountNotice(jobs, reply, {
      notice: 'password-changed',
      userId: user.userId,
      siteId: user.siteId,
      origin: noticeOrigin(request, auth),
      at: auth.clock.now().toISOString(),
    });

  app.route<{ Body: { currentPassword: string; password: string; confirm_password: string } }>({
    // ADR 0025: a new password owns the account; the current one alone is what a shared computer may have kept.
    ...fromContract('POST /user-mgmt/user/change-password', { freshProof: true }),
    // Before the fresh-proof check: nobody is asked to confirm a change this account cannot make here.
    preValidation: async (request) => {
      if (request.sessionUser === null) return;
      assertPasswordChangeOffered(sessionSiteConfig(fixtures, request.sessionUser.siteId), await passwordHashOf(request.sessionUser.userId));
    },
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      // Guessing the current password from a stolen session counts like sign-in attempts from that IP.
      await auth.limits.countSignInCall(request.ip);
      const passwordHash = await passwordHashOf(user.userId);
      assertPasswordRules(request.body);
      if (!(await verifyPassword(passwordHash, request.body.currentPassword))) {
        throw new HttpError(400, 'CURRENT_PASSWORD_INCORRECT', 'Current password is incorrect.', { currentPassword: 'incorrect' });
      }
      await assertAcceptableNewPassword(db, auth, user.userId, request.body.password);
      await replacePassword(db, { userId: user.userId, password: request.body.password, now: auth.clock.now(), keepSessionId: user.sessionId });
      await noticePasswordChanged(request, reply, user);
      return { status: 'PASSWORD_CHANGED' };
    },
  });

  // SPEC §2 compromised-credentials: the signed-in user replaces a listed password (ADR 0009). SPEC §7
  // declares the call among the user-mgmt ones, so it lives under user-mgmt/user/ (ADR 0009).
  app.route<{ Body: { password: string; confirm_password: string } }>({
    // ADR 0025: the session that proved a breached password may be refreshed, or held by someone else, past
    // its 10 minutes: a new password then takes fresh proof, as change-password does.
    ...fromContract('POST /user-mgmt/user/vba/compromised-password', { openWhilePasswordChangeRequired: true, freshProof: true }),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      // Without the current password, this call is only for the sign-in that proved a breached one;
      // anyone else changes a password with the current one (change-password) or a mailed passcode.
      if (!user.passwordChangeRequired) {
        throw new HttpError(
          403,
          'PASSWORD_CHANGE_NOT_REQUIRED',
          'Your password is not on the breached list; change it from the password page with your current one.',
        );
      }
      assertPasswordRules(request.body);
      await assertAcceptableNewPassword(db, auth, user.userId, request.body.password);
      await replacePassword(db, { userId: user.userId, password: request.body.password, now: auth.clock.now(), keepSessionId: user.sessionId });
      await noticePasswordChanged(request, reply, user);
      return { status: 'PASSWORD_CHANGED' };
    },
  });
}
