import type { AuthServices } from '../auth/auth-services';
import { CODE_TTL_MS, checkCode, issueCode, MAX_CODE_ATTEMPTS } from '../auth/one-time-codes';
import { destinationsOf } from '../auth/passcode-delivery';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';
import { DEFAULT_LOCALE } from '../locale';
import type { MessageChannel } from '../mail/mailer';
import { recipientById } from '../mail/recipient';
import { recoveryCodeMessage } from './account-mail';
import { isRecentlyProvedPhone } from './provisional-phone';
import { isUnprovedAccount } from './unproved-accounts';

/**
 * ADR 0009 "Recovery": a 6-digit recovery code (ADR 0008 codes: hashed, single use, 10 minutes,
 * 5 attempts) for a forgotten password. Known and unknown addresses get the same answers: an
 * unknown one counts its attempts down in the counter store as a real code would.
 */

async function userIdByEmail(db: Database, email: string): Promise<string | null> {
  const found = await db.query<{ id: string }>('select id from users where email = $1', [email.trim().toLowerCase()]);
  return found.rows[0]?.id ?? null;
}

/** ADR 0012 `recovery-code` job payload. */
export interface RecoveryCodeJob {
  email: string;
  siteId: string;
  channel: MessageChannel;
}

/**
 * The `recovery-code` job: a code to a known account, by SMS only when asked and the account has a phone.
 * The route has already refused SMS of a site that offers none (ADR 0025 "Channels come from the site").
 */
export async function sendRecoveryCode(db: Database, services: AuthServices, job: RecoveryCodeJob): Promise<void> {
  const { email, siteId } = job;
  const userId = await userIdByEmail(db, email);
  if (userId === null) {
    await services.limits.resetUnknownAddressCodeAttempts(email);
    return;
  }
  const destinations = await destinationsOf(db, userId, siteId);
  if (!destinations) return;
  // ADR 0009 "Activation": a never-activated account's phone is only what its registrant typed, and a reset
  // of such an account activates it, so its code goes to the mailbox the activation would have proved. ADR 0025
  // "A new phone stays provisional for 7 days": no password reset goes to it meanwhile.
  const textable =
    destinations.phone !== null &&
    !(await isUnprovedAccount(db, userId)) &&
    !(await isRecentlyProvedPhone(db, userId, destinations.phone, services.clock.now()));
  const channel = job.channel === 'sms' && textable ? 'sms' : 'email';
  const code = await issueCode(db, { userId, siteId, purpose: 'recovery', channel, keys: services.keys.token, now: services.clock.now() });
  const to = channel === 'sms' && destinations.phone !== null ? destinations.phone : destinations.email;
  const recipient = await recipientById(db, userId, siteId);
  await services.mailer.send(recoveryCodeMessage(services.mailTexts(recipient?.locale ?? DEFAULT_LOCALE), channel, to, code, CODE_TTL_MS / 60_000));
}

/**
 * The account and live code a recovery code belongs to, or 400 PASSCODE_INVALID `{ attemptsLeft }`
 * (wrong, used or expired code, or an unknown address). The code is not spent: `spendCode` does
 * that once the new password is accepted, so a refused password does not cost the code.
 */
export async function checkRecoveryCode(db: Database, services: AuthServices, email: string, passcode: string): Promise<{ userId: string; codeId: string }> {
  const userId = await userIdByEmail(db, email);
  // Without a live code, a known address answers exactly like an unknown one: otherwise
  // `attemptsLeft` alone would tell which addresses have accounts.
  if (userId === null || !(await hasLiveRecoveryCode(db, userId, services.clock.now()))) {
    const unknown = await services.limits.recordUnknownAddressCodeAttempt(email, MAX_CODE_ATTEMPTS, CODE_TTL_MS);
    throw unknown.spent ? passcodeSpent(unknown.retryAfterSeconds) : passcodeInvalid(unknown.attemptsLeft);
  }
  const result = await checkCode(db, { userId, purpose: 'recovery', code: passcode, keys: services.keys.token, now: services.clock.now(), consume: false });
  if (!result.ok) throw result.error === 'OTP_SPENT' ? passcodeSpent(result.retryAfterSeconds) : passcodeInvalid(result.attemptsLeft);
  return { userId, codeId: result.codeId };
}

async function hasLiveRecoveryCode(db: Database, userId: string, now: Date): Promise<boolean> {
  const found = await db.query(`select 1 from one_time_codes where user_id = $1 and purpose = 'recovery' and used_at is null and expires_at > $2 limit 1`, [
    userId,
    now,
  ]);
  return found.rows.length > 0;
}

/**
 * ADR 0008 `OTP_SPENT`, as the sign-in passcode step answers it: the attempts are used up, so even the right code
 * is refused, and Retry-After says when a new code will work ("Codes asked for again").
 */
function passcodeSpent(retryAfterSeconds: number | undefined): HttpError {
  return new HttpError(401, 'OTP_SPENT', 'The passcode can no longer be used; ask for a new one.', undefined, {
    extras: { attemptsLeft: 0 },
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
}

function passcodeInvalid(attemptsLeft: number): HttpError {
  return new HttpError(
    400,
    'PASSCODE_INVALID',
    'The passcode is not right, or it has expired; ask for a new one.',
    { passcode: 'invalid' },
    { extras: { attemptsLeft } },
  );
}
