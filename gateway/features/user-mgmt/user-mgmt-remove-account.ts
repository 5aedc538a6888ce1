import { ONE_TIME_CODE } from '../../../schemas/forms/one-time-code';
import type { FastifyInstance } from 'fastify';
import { featureConfigOf } from '../../../schemas/site-config/types';
import { queueAccountNotice } from '../../account/account-notices';
import type { AuthServices } from '../../auth/auth-services';
import { hasUsablePassword, sessionSiteConfig } from '../../auth/credential-rules';
import { assertFreshProof, freshProofRefusal, recordProofs } from '../../auth/assurance';
import { verifyPasscodeOrThrow } from '../../auth/second-factor';
import { clearAuthCookies, requireSessionUser } from '../../auth/session-cookies';
import type { SessionUser } from '../../auth/session-store';
import { deviceIdOf } from '../../auth/sign-in-answer';
import type { Database, Queryable } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import { verifyPassword } from '../../security/password-hashing';

const PASSWORD_MAX_LENGTH = 256;
import type { JobQueue } from '../../jobs/job-queue';
import type { MessageChannel } from '../../mail/mailer';
import { recipientById } from '../../mail/recipient';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `POST user-mgmt/user/remove-account`, ADR 0009 "Deletion": deletes the signed-in user's profile on
 * the session's site, and the user with it when it was their last (`removeProfileOrAccount`): then every table
 * keyed by the user cascades (site attributes, cards, sessions, refresh tokens, codes, TOTP, activation tokens,
 * password history). The auth cookies are cleared as at logout. Refused with 403 DELETE_NOT_ALLOWED on a site
 * whose `allow_delete_profile` is "false"; another site's setting is that site's, for its own profile.
 *
 * A session alone does not delete (ADR 0009 "Deletion: proof of presence"): the body carries the
 * current `password`, checked under the sign-in limits of ADR 0008 (a wrong one counts toward the
 * account's lock), or, for an account with no usable password (SSO, ADR 0015), a `passcode` sent by
 * `send-code` with purpose `otp-check`; and, like every change that owns the account, fresh proof of the
 * site's strongest factor (ADR 0025). The route asks it itself rather than by `freshProof`: for an account
 * without a password the passcode of the body is that proof, recorded before the check, and a session that
 * already holds fresh proof needs no second code. An agent never deletes (`cardholder`, ADR 0014).
 */
export async function userMgmtRemoveAccountRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, auth, jobs } = options;

  app.route<{ Body: unknown }>({
    ...fromContract('POST /user-mgmt/user/remove-account'),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      if (featureConfigOf(sessionSiteConfig(fixtures, user.siteId), 'allow_delete_profile').allow_delete_profile === 'false') {
        throw new HttpError(403, 'DELETE_NOT_ALLOWED', 'This site does not allow deleting your profile.');
      }
      // Guessing the password from a stolen session counts like sign-in attempts from that IP.
      await auth.limits.countSignInCall(request.ip);
      const found = await db.query<{ password_hash: string }>('select password_hash from users where id = $1', [user.userId]);
      const passwordHash = found.rows[0]?.password_hash ?? '';
      const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
      const now = auth.clock.now();
      if (hasUsablePassword(passwordHash)) {
        await assertFreshProof(db, fixtures, user, now);
        await proveWithPassword(user, passwordHash, body.password);
      } else if ((await freshProofRefusal(db, fixtures, user, now)) !== null) {
        const channel = await proveWithPasscode(user, body.passcode);
        await recordProofs(db, user.sessionId, user.siteId, [{ kind: 'passcode', channel }], now);
        await assertFreshProof(db, fixtures, user, now);
      }
      // Read before the deletion: the notice is written after it, to an account that is gone.
      const recipient = await recipientById(db, user.userId, user.siteId);
      await db.transaction(async (tx) => {
        await removeProfileOrAccount(tx, user.userId, user.siteId, auth.clock.now());
        if (recipient)
          await queueAccountNotice(
            jobs,
            reply,
            { notice: 'account-deleted', email: recipient.email, locale: recipient.locale, siteId: user.siteId, at: auth.clock.now().toISOString() },
            tx,
          );
      });
      clearAuthCookies(request, reply);
      return { status: 'DELETED' };

      async function proveWithPassword(owner: SessionUser, hash: string, password: unknown): Promise<void> {
        if (password === undefined || password === '')
          throw new HttpError(400, 'VALIDATION_FAILED', 'Enter your password to delete your account.', { password: 'required' });
        if (typeof password !== 'string' || password.length > PASSWORD_MAX_LENGTH) {
          throw new HttpError(400, 'VALIDATION_FAILED', `Invalid request: password must be text of at most ${PASSWORD_MAX_LENGTH} characters.`, {
            password: 'invalid',
          });
        }
        const deviceId = deviceIdOf(request, reply, auth.clock.now());
        await auth.limits.assertNotLocked(owner.email, deviceId);
        if (!(await verifyPassword(hash, password))) {
          const attemptsLeft = await auth.limits.recordPasswordFailure(owner.email, deviceId);
          throw new HttpError(
            403,
            'PASSWORD_INCORRECT',
            'The password is not right; your account was not deleted.',
            { password: 'incorrect' },
            { extras: { attemptsLeft } },
          );
        }
        await auth.limits.recordPasswordSuccess(owner.email);
      }

      async function proveWithPasscode(owner: SessionUser, passcode: unknown): Promise<MessageChannel> {
        if (passcode === undefined || passcode === '')
          throw new HttpError(400, 'VALIDATION_FAILED', 'Enter the passcode we sent you to delete your account.', { passcode: 'required' });
        if (typeof passcode !== 'string' || !ONE_TIME_CODE.test(passcode))
          throw new HttpError(400, 'VALIDATION_FAILED', 'Invalid request: passcode must be 6 digits.', { passcode: 'invalid' });
        await auth.limits.countCodeCheck(request.ip);
        try {
          return await verifyPasscodeOrThrow(db, auth, owner.userId, 'otp-check', passcode, { siteId: owner.siteId });
        } catch (error) {
          // The screen's field error, not the sign-in's 401 (which would sign the person out).
          if (!(error instanceof HttpError) || error.statusCode !== 401) throw error;
          await auth.limits.recordDeviceFailure(deviceIdOf(request, reply, auth.clock.now()));
          throw new HttpError(403, error.code, error.message, { passcode: error.code === 'OTP_EXPIRED' ? 'expired' : 'incorrect' }, error.details);
        }
      }
    },
  });
}

/**
 * What "delete my account" on one bank's site removes (ADR 0009 "Deletion", ADR 0025): SPEC §2 calls the screen
 * delete-profile, and the person's profiles on other banks' sites are theirs with those banks, whose own
 * `allow_delete_profile` this site cannot speak for. So with another site's profile left, only this site's goes
 * (its attributes, cards, cashback lines, aliases, sessions, refresh tokens and codes), and the sign-in identity
 * stays for the others; with none left, the identity goes and every table keyed by it cascades.
 */
async function removeProfileOrAccount(tx: Queryable, userId: string, siteId: string, now: Date): Promise<void> {
  const others = await tx.query('select 1 from user_sites where user_id = $1 and site_id <> $2 limit 1', [userId, siteId]);
  if (others.rows.length === 0) {
    await tx.query('delete from users where id = $1', [userId]);
    return;
  }
  for (const table of SITE_SCOPED_TABLES) await tx.query(`delete from ${table} where user_id = $1 and site_id = $2`, [userId, siteId]);
  await tx.query('update sessions set revoked_at = $3 where user_id = $1 and site_id = $2 and revoked_at is null', [userId, siteId, now]);
}

/** The tables whose rows belong to one site's profile; sessions are revoked rather than deleted, as at sign-out. */
const SITE_SCOPED_TABLES = ['user_sites', 'assets', 'cashback_lines', 'user_aliases', 'refresh_tokens', 'one_time_codes'] as const;
