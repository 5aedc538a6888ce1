import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { recordProofs } from '../../auth/assurance';
import { changeNoticeOf, queueAccountNotice, type PlainChangeNotice } from '../../account/account-notices';
import type { AuthServices } from '../../auth/auth-services';
import { assertMfaOffered, sessionSiteConfig } from '../../auth/credential-rules';
import { verifyTotpOrThrow } from '../../auth/second-factor';
import { requireSessionUser } from '../../auth/session-cookies';
import type { SessionUser } from '../../auth/session-store';
import { checkBackupCode, issueBackupCodes, backupCodeInvalid, backupCodesLeft } from '../../auth/backup-codes';
import { otpauthUrl } from '../../auth/totp';
import { acceptTotpCode, markTotpEnrolled, mfaAlreadyEnrolled, removeTotp, startTotpSetup } from '../../auth/totp-enrolment';
import type { Database, Queryable } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import type { JobQueue } from '../../jobs/job-queue';
import { fromContract } from '../../http/route-contract';

/** The issuer authenticator apps show beside the account. */
const TOTP_ISSUER = 'Rewards Portal';
type SecondFactorBody = { code?: string; backupCode?: string };

/**
 * SPEC §7's declared `mfa/totp/setup`, `enroll`, `unenroll`, as ADR 0008 designs them (SPEC §2
 * mfa-setup): a pending secret shown once as a QR code and a manual key, confirmed by a first code;
 * enrolling hands out the backup codes, which stand in for a lost phone (ADR 0021). Enrolling, removing and new
 * codes are each told to the account's address, queued in the change's transaction (ADR 0021 "Telling the holder").
 */
export async function userMgmtTotpRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, auth, jobs } = options;
  const tell = (request: FastifyRequest, reply: FastifyReply, user: SessionUser, notice: PlainChangeNotice) => (tx: Queryable) =>
    queueAccountNotice(jobs, reply, { notice, ...changeNoticeOf(request, auth, user.userId, user.siteId) }, tx);

  // A site with MFA "off" offers no set-up (403 MFA_NOT_OFFERED); removing one enrolled elsewhere stays open.
  // Setting up and enrolling need fresh proof (ADR 0025): an authenticator a thief enrols locks the owner out.
  // Removing one and new backup codes ask the authenticator or a backup code in their body instead.
  // Before the fresh-proof check: nobody is asked to confirm a set-up the site does not offer, or one made already.
  const mfaOffered = async (request: FastifyRequest) => {
    if (request.sessionUser === null) return;
    assertMfaOffered(sessionSiteConfig(fixtures, request.sessionUser.siteId));
    if (request.sessionUser.profile.mfaEnrollmentStatus === 'ENROLLED') throw mfaAlreadyEnrolled();
  };
  app.route({
    ...fromContract('POST /user-mgmt/user/mfa/totp/setup', { freshProof: true }),
    preValidation: mfaOffered,
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      const secret = await startTotpSetup(db, auth.totpBox, user.userId, auth.clock.now());
      const url = otpauthUrl(secret, TOTP_ISSUER, user.email);
      return { secret, otpauthUrl: url, qrSvg: await QRCode.toString(url, { type: 'svg', margin: 1 }) };
    },
  });

  app.route<{ Body: { code: string } }>({
    ...fromContract('POST /user-mgmt/user/mfa/totp/enroll', { freshProof: true }),
    preValidation: mfaOffered,
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      await auth.limits.countCodeCheck(request.ip);
      const now = auth.clock.now();
      if (!(await acceptTotpCode(db, auth.totpBox, { userId: user.userId, status: 'PENDING', code: request.body.code, now }))) {
        throw new HttpError(400, 'OTP_INVALID', 'The code does not match the new authenticator key; scan it again or wait for the next code.');
      }
      // Shown once, here; only their hashes are kept (docs/decisions/0021-backup-codes-and-account-notices.md).
      const backupCodes = await markTotpEnrolled(db, auth.keys.tokenRoot, user.userId, now, tell(request, reply, user, 'authenticator-enrolled'));
      // The code just given is the new strongest factor's, fresh (ADR 0025): the next owning change needs no other.
      await recordProofs(db, user.sessionId, user.siteId, [{ kind: 'totp' }], now);
      return { mfaEnrollmentStatus: 'ENROLLED', backupCodes };
    },
  });

  /**
   * An authenticator code or a backup code of the enrolled user, else 400 OTP_INVALID with `attemptsLeft` (a 401
   * would sign the app out, SPEC §8). A wrong authenticator code counts toward the account's 5 in 10 minutes as at
   * sign-in (ADR 0008), so a held session gives no more guesses than the sign-in does.
   */
  async function proveSecondFactor(userId: string, body: SecondFactorBody): Promise<void> {
    if (body.code !== undefined) {
      try {
        await verifyTotpOrThrow(db, auth, userId, body.code);
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode !== 401) throw error;
        throw new HttpError(400, error.code, 'The code from your authenticator app is not right.', undefined, error.details);
      }
      return;
    }
    const checked = await checkBackupCode(db, auth, userId, body.backupCode ?? '');
    if (!checked.ok) throw backupCodeInvalid(400, checked.attemptsLeft);
  }

  // A lost phone: the person removes the old authenticator with a backup code, then sets up the new one.
  app.route<{ Body: SecondFactorBody }>({
    ...fromContract('POST /user-mgmt/user/mfa/totp/unenroll'),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      await auth.limits.countCodeCheck(request.ip);
      await proveSecondFactor(user.userId, request.body);
      await removeTotp(db, user.userId, auth.clock.now(), tell(request, reply, user, 'authenticator-removed'));
      return { mfaEnrollmentStatus: 'NOT_ENROLLED' };
    },
  });

  app.route({
    ...fromContract('GET /user-mgmt/user/mfa/backup-codes'),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      return { remaining: await backupCodesLeft(db, user.userId) };
    },
  });

  // New codes void the old ones. A second factor is asked for, so a stolen session alone cannot mint codes.
  app.route<{ Body: SecondFactorBody }>({
    ...fromContract('POST /user-mgmt/user/mfa/backup-codes'),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      await auth.limits.countCodeCheck(request.ip);
      const enrolled = await db.query("select 1 from users where id = $1 and mfa_enrollment_status = 'ENROLLED'", [user.userId]);
      if (enrolled.rows.length === 0) throw new HttpError(409, 'MFA_NOT_ENROLLED', 'Backup codes come with an authenticator app; set one up first.');
      await proveSecondFactor(user.userId, request.body);
      const told = tell(request, reply, user, 'backup-codes-renewed');
      const backupCodes = await db.transaction(async (tx) => {
        const codes = await issueBackupCodes(tx, auth.keys.tokenRoot, user.userId, auth.clock.now());
        await told(tx);
        return codes;
      });
      return { backupCodes };
    },
  });
}
