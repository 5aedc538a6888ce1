import type { Database } from '../db/database';
import type { MessageChannel } from '../mail/mailer';
import { HttpError } from '../http/errors';
import type { AuthServices } from './auth-services';
import { checkCode, type CodePurpose } from './one-time-codes';
import { acceptTotpCode } from './totp-enrolment';

/**
 * Checks an authenticator code of an enrolled user, or throws 401 OTP_INVALID with `attemptsLeft`
 * (ADR 0008); 5 wrong codes in 10 minutes and the account gets no more tries until the window ends.
 */
export async function verifyTotpOrThrow(db: Database, services: AuthServices, userId: string, code: string): Promise<void> {
  const { limits, totpBox, clock } = services;
  if ((await limits.totpAttemptsLeft(userId)) === 0) throw otpError('OTP_INVALID', 0);
  if (await acceptTotpCode(db, totpBox, { userId, status: 'ENROLLED', code, now: clock.now() })) {
    await limits.clearTotpFailures(userId);
    return;
  }
  throw otpError('OTP_INVALID', await limits.recordTotpFailure(userId));
}

/**
 * Checks an e-mailed or texted code sent for `sentFor.siteId` (and by `sentFor.channel`, when the caller names
 * one), or throws 401 OTP_INVALID / OTP_EXPIRED / OTP_SPENT with `attemptsLeft`: a code of another site or channel is a
 * wrong code (docs/decisions/0025-fresh-proof.md). Returns the channel the code went by.
 */
export async function verifyPasscodeOrThrow(
  db: Database,
  services: AuthServices,
  userId: string,
  purpose: CodePurpose,
  code: string,
  sentFor: { siteId: string; channel?: MessageChannel },
): Promise<MessageChannel> {
  const result = await checkCode(db, { userId, purpose, code, keys: services.keys.token, now: services.clock.now(), ...sentFor });
  if (!result.ok) throw otpError(result.error, result.attemptsLeft, result.retryAfterSeconds);
  return result.channel;
}

const OTP_MESSAGES = {
  OTP_INVALID: 'The passcode is not right.',
  OTP_EXPIRED: 'The passcode has expired; ask for a new one.',
  OTP_SPENT: 'The passcode can no longer be used; ask for a new one.',
} as const;

/** 401 with `attemptsLeft`; an OTP_SPENT whose attempts are used up says with Retry-After when a new code will work (ADR 0008). */
function otpError(code: keyof typeof OTP_MESSAGES, attemptsLeft: number, retryAfterSeconds?: number): HttpError {
  return new HttpError(401, code, OTP_MESSAGES[code], undefined, {
    extras: { attemptsLeft },
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
}
