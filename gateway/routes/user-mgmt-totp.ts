import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import type { AuthServices } from '../auth/auth-services';
import { assertMfaOffered, sessionSiteConfig } from '../auth/credential-rules';
import { requireSessionUser } from '../auth/session-cookies';
import { otpauthUrl } from '../auth/totp';
import { acceptTotpCode, markTotpEnrolled, removeTotp, startTotpSetup } from '../auth/totp-enrolment';
import type { Database } from '../db/database';
import type { Fixtures } from '../fixtures/load-fixtures';
import { HttpError } from '../http/errors';

/** The issuer authenticator apps show beside the account. */
const TOTP_ISSUER = 'Rewards Portal';
const CODE_BODY = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string', pattern: '^[0-9]{6}$' } },
} as const;

/**
 * SPEC §7's declared `mfa/totp/setup`, `enroll`, `unenroll`, as ADR 0008 designs them (SPEC §2
 * mfa-setup): a pending secret shown once as a QR code and a manual key, confirmed by a first code.
 */
export async function userMgmtTotpRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; auth: AuthServices }): Promise<void> {
  const { db, fixtures, auth } = options;

  // A site with MFA "off" offers no set-up (403 MFA_NOT_OFFERED); removing one enrolled elsewhere stays open.
  app.post('/user-mgmt/user/mfa/totp/setup', { config: { access: 'cardholder' } }, async (request, reply) => {
    const user = await requireSessionUser(db, request, reply, auth.clock.now());
    assertMfaOffered(sessionSiteConfig(fixtures, user.siteId));
    const secret = await startTotpSetup(db, auth.totpBox, user.userId, auth.clock.now());
    const url = otpauthUrl(secret, TOTP_ISSUER, user.email);
    return { secret, otpauthUrl: url, qrSvg: await QRCode.toString(url, { type: 'svg', margin: 1 }) };
  });

  app.post<{ Body: { code: string } }>('/user-mgmt/user/mfa/totp/enroll', { config: { access: 'cardholder' }, schema: { body: CODE_BODY } }, async (request, reply) => {
    const user = await requireSessionUser(db, request, reply, auth.clock.now());
    assertMfaOffered(sessionSiteConfig(fixtures, user.siteId));
    await auth.limits.countCodeCheck(request.ip);
    const now = auth.clock.now();
    if (!(await acceptTotpCode(db, auth.totpBox, { userId: user.userId, status: 'PENDING', code: request.body.code, now }))) {
      throw new HttpError(400, 'OTP_INVALID', 'The code does not match the new authenticator key; scan it again or wait for the next code.');
    }
    await markTotpEnrolled(db, user.userId, now);
    return { mfaEnrollmentStatus: 'ENROLLED' };
  });

  app.post<{ Body: { code: string } }>('/user-mgmt/user/mfa/totp/unenroll', { config: { access: 'cardholder' }, schema: { body: CODE_BODY } }, async (request, reply) => {
    const user = await requireSessionUser(db, request, reply, auth.clock.now());
    await auth.limits.countCodeCheck(request.ip);
    const now = auth.clock.now();
    if (!(await acceptTotpCode(db, auth.totpBox, { userId: user.userId, status: 'ENROLLED', code: request.body.code, now }))) {
      throw new HttpError(400, 'OTP_INVALID', 'The code from your authenticator app is not right.');
    }
    await removeTotp(db, user.userId, now);
    return { mfaEnrollmentStatus: 'NOT_ENROLLED' };
  });
}
