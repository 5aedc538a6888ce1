import type { FastifyInstance } from 'fastify';
import { recoveryChannelsOf } from '../../../schemas/site-config/credential-offers';
import { assertAcceptableNewPassword, assertNotCompromised, assertPasswordRules, replacePassword } from '../../account/new-password';
import { requestAccountMail } from '../../account/account-jobs';
import { noticeOrigin, queueAccountNotice } from '../../account/account-notices';
import { checkRecoveryCode } from '../../account/recovery';
import { isUnprovedAccount, restartUnprovedAccount } from '../../account/unproved-accounts';
import type { AuthServices } from '../../auth/auth-services';
import { sessionSiteConfig } from '../../auth/credential-rules';
import { spendCode } from '../../auth/one-time-codes';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import type { JobQueue } from '../../jobs/job-queue';
import { hashPassword } from '../../security/password-hashing';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `send-passcode`, `find-code` and `change-password-from-passcode`, as ADR 0009 "Recovery"
 * fixes them: the same answers for every address, recovery-purpose codes, and a successful reset
 * that signs the account out everywhere.
 */
export async function userMgmtRecoveryRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, auth, jobs } = options;

  /** The site a recovery code was sent for (ADR 0025: every code names one) and the channel it went by. */
  async function codeSent(codeId: string): Promise<{ siteId: string; channel: string }> {
    const found = await db.query<{ site_id: string | null; channel: string }>('select site_id, channel from one_time_codes where id = $1', [codeId]);
    return { siteId: found.rows[0]?.site_id ?? '', channel: found.rows[0]?.channel ?? '' };
  }

  /** A reset names no site: the notice speaks for the site the person used last. */
  async function siteOfRecovery(userId: string): Promise<string> {
    const found = await db.query<{ site_id: string }>('select site_id from user_sites where user_id = $1 order by updated_at desc, site_id limit 1', [userId]);
    return found.rows[0]?.site_id ?? '';
  }

  app.route<{ Body: { email: string; siteId: string; locale: string; channel?: 'email' | 'sms' } }>({
    ...fromContract('POST /user-mgmt/user/send-passcode'),
    handler: async (request, reply) => {
      await auth.limits.countAccountCall(request.ip);
      const { email, siteId, locale, channel } = request.body;
      // ADR 0025 "Channels come from the site": SMS only where the site's recovery offers it (SPEC §2's
      // step-by-step variant), told from the site alone, so the answer says nothing about the account.
      if (channel !== undefined && !recoveryChannelsOf(sessionSiteConfig(fixtures, siteId), locale).includes(channel)) {
        throw new HttpError(400, 'VALIDATION_FAILED', `This site does not send recovery passcodes by ${channel}.`, { channel: 'notOffered' });
      }
      await requestAccountMail(auth, jobs, { kind: 'recovery-code', job: { email, siteId, channel: channel ?? 'email' } });
      jobs.wakeAfterAnswer(reply);
      return reply.code(202).send({ status: 'CHECK_EMAIL' });
    },
  });

  app.route<{ Body: { email: string; passcode: string } }>({
    ...fromContract('POST /user-mgmt/user/find-code'),
    handler: async (request) => {
      await auth.limits.countCodeCheck(request.ip);
      await checkRecoveryCode(db, auth, request.body.email, request.body.passcode);
      return { status: 'CODE_OK' };
    },
  });

  app.route<{ Body: { email: string; passcode: string; password: string; confirm_password: string } }>({
    ...fromContract('POST /user-mgmt/user/change-password-from-passcode'),
    handler: async (request, reply) => {
      await auth.limits.countCodeCheck(request.ip);
      const { email, passcode, password } = request.body;
      assertPasswordRules(request.body);
      const { userId, codeId } = await checkRecoveryCode(db, auth, email, passcode);
      // ADR 0009 "Activation": an account nobody activated is the registrant's guess at an address; its password
      // history is theirs too, so only the breached list applies to the mailbox owner's new password.
      const sent = await codeSent(codeId);
      // Only a code that went to the mailbox proves it (a never-activated account is sent none by SMS, `sendRecoveryCode`).
      const unproved = sent.channel === 'email' && (await isUnprovedAccount(db, userId));
      if (unproved) await assertNotCompromised(auth, password);
      else await assertAcceptableNewPassword(db, auth, userId, password);
      const now = auth.clock.now();
      // Spent only now, so a refused password leaves the code usable for the next try.
      if (!(await spendCode(db, codeId, now))) {
        throw new HttpError(
          400,
          'PASSCODE_INVALID',
          'The passcode is not right, or it has expired; ask for a new one.',
          { passcode: 'invalid' },
          { extras: { attemptsLeft: 0 } },
        );
      }
      // The mailed code proved the mailbox: a never-activated account becomes the mailbox owner's, active and
      // afresh, and the registrant loses everything they held (their password, sessions, devices, profile, cards).
      const restarted = unproved ? await restartUnprovedAccount(db, { userId, passwordHash: await hashPassword(password), now }) : null;
      if (restarted === null) await replacePassword(db, { userId, password, now });
      const accountId = restarted ?? userId;
      // ADR 0008 "A reset ends the lock": the mailed passcode proved the person holds the account.
      await auth.limits.clearAccountLock(email);
      await queueAccountNotice(jobs, reply, {
        notice: 'password-changed',
        userId: accountId,
        // A fresh account has no profile yet: the notice speaks for the site the code was asked on.
        siteId: restarted === null ? await siteOfRecovery(userId) : sent.siteId,
        origin: noticeOrigin(request, auth),
        at: now.toISOString(),
      });
      return { status: 'PASSWORD_CHANGED' };
    },
  });
}
