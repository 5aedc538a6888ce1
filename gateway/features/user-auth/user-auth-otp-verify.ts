import type { FastifyInstance } from 'fastify';
import { recordProofs, type GivenProof } from '../../auth/assurance';
import type { AuthServices } from '../../auth/auth-services';
import { verifyPasscodeOrThrow, verifyTotpOrThrow } from '../../auth/second-factor';
import { requireSessionUser } from '../../auth/session-cookies';
import type { Database } from '../../db/database';
import { fromContract } from '../../http/route-contract';

/** SPEC §9 otp_expiry: a passed check holds 15 minutes; the app mirrors it in local storage. */
export const OTP_CHECK_VALID_MS = 15 * 60_000;

/**
 * ADR 0008 `POST user-auth/otp/verify { otp, otp_type }` for the signed-in otp-check screens (SPEC
 * §2): a code sent by `send-code` with purpose `otp-check` for this session's site by the channel
 * `otp_type` names, or an authenticator code. Counts toward the per-IP code-check limit. A pass is
 * recorded as the session's proof (ADR 0025), which the app's "confirm it's you" step relies on.
 */
export async function userAuthOtpVerifyRoutes(app: FastifyInstance, options: { db: Database; auth: AuthServices }): Promise<void> {
  const { db, auth } = options;
  app.route<{ Body: { otp: string; otp_type: 'email' | 'sms' | 'totp' } }>({
    // Open to a session held for a breached password: its replacement may need this confirm step (ADR 0025).
    ...fromContract('POST /user-auth/otp/verify', { openWhilePasswordChangeRequired: true }),
    handler: async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, auth.clock.now());
      await auth.limits.countCodeCheck(request.ip);
      const { otp, otp_type: otpType } = request.body;
      if (otpType === 'totp') await verifyTotpOrThrow(db, auth, user.userId, otp);
      else await verifyPasscodeOrThrow(db, auth, user.userId, 'otp-check', otp, { siteId: user.siteId, channel: otpType });
      const proof: GivenProof = otpType === 'totp' ? { kind: 'totp' } : { kind: 'passcode', channel: otpType };
      await recordProofs(db, user.sessionId, user.siteId, [proof], auth.clock.now());
      return { verifiedUntil: new Date(auth.clock.now().getTime() + OTP_CHECK_VALID_MS).toISOString() };
    },
  });
}
