import type { GatewayError } from '../api/gateway-api';
import type { OtpType } from '../api/user-auth-api';
import { GLOBAL_ERROR_STATUSES } from '../app/error-catalogue';

/**
 * The sign-in flow (SPEC §2 login → login-otp-preference → login-otp, ADR 0008) as explicit steps:
 * each answer of `user-auth/login` decides the next step, purely, so the screens only render a
 * step and the table of codes is tested without a browser.
 *
 *   credentials ──200──────────────────────────────▶ signed in (passwordCompromised: on to compromised-credentials, ADR 0009)
 *        │ OTP_REQUIRED_EMAIL / _PHONE, MFA_OTP_REQUIRED ──▶ enter passcode (login-otp)
 *        │ VBA_TOKEN_REQUIRED ──▶ enter the mailed passcode as vba_token (login-otp, breached password, ADR 0009)
 *        │ OTP_REQUIRED ──▶ choose channel (login-otp-preference) ──send-code──▶ enter passcode
 *        └ BAD_CREDENTIALS, USER_LOCKED, DEVICE_LOCKED, RATE_LIMITED, OTP_INVALID, … ──▶ same step, with the text
 */

/** A content text to show: a key of a content group and its placeholder values. */
export interface TextRef {
  group: 'errors' | 'signIn' | 'account';
  key: string;
  values?: Readonly<Record<string, string | number>>;
  /** An instant (ISO 8601) shown as `{{time}}` in the page's locale, e.g. when a lock ends. */
  at?: string;
}

/** ADR 0008: the sign-in page warns from this many wrong passwords left before the account locks. */
export const WARN_FROM_ATTEMPTS_LEFT = 2;

export type SignInStep =
  /** ADR 0009: `passwordCompromised` when the password is on the breached list; the person sets a new one first. */
  | { kind: 'signed-in'; expiresIn: number; passwordCompromised: boolean; recoveryCodesLeft: number | null }
  /** `breachedPassword`: the code proves the mailbox of a breached password (ADR 0009 "Breached passwords"), sent as `vba_token`. */
  | { kind: 'enter-passcode'; otpType: OtpType; maskedDestination: string | null; breachedPassword: boolean }
  | { kind: 'choose-passcode-channel' }
  /** Shown on the form as an alert; the person stays on the step. */
  | { kind: 'refused'; text: TextRef }
  /** §8 global alert already says it (0, 500, 502, 524): nothing more on the form. */
  | { kind: 'unavailable' };

/** ADR 0008: the code that asks for a passcode, and where that passcode comes from. */
const PASSCODE_CODES: Readonly<Record<string, OtpType>> = {
  OTP_REQUIRED_EMAIL: 'email',
  OTP_REQUIRED_PHONE: 'sms',
  MFA_OTP_REQUIRED: 'totp',
};

/** Retry-After as whole minutes for a text, at least 1. */
function minutesOf(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

function numberDetail(error: GatewayError, name: string): number | undefined {
  const value = error.details?.[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function stringDetail(error: GatewayError, name: string): string | null {
  const value = error.details?.[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The base query answers GatewayErrors; anything else (a request that could not be built) is unexpected. */
export function asGatewayError(error: unknown): GatewayError {
  const candidate = error as Partial<GatewayError> | undefined;
  if (typeof candidate?.status === 'number' && typeof candidate.code === 'string') return candidate as GatewayError;
  return { status: -1, code: 'CLIENT_ERROR', message: String((error as { message?: unknown } | undefined)?.message ?? error), correlationId: null };
}

/** §8 default texts and our content texts for every refusal of ADR 0008's sign-in and passcode calls. */
export function refusalText(failure: unknown): TextRef {
  const error = asGatewayError(failure);
  const retryAfter = error.retryAfterSeconds;
  switch (error.code) {
    case 'BAD_CREDENTIALS': {
      const attemptsLeft = numberDetail(error, 'attemptsLeft');
      if (attemptsLeft === undefined || attemptsLeft <= 0 || attemptsLeft > WARN_FROM_ATTEMPTS_LEFT) return { group: 'errors', key: 'wrongCombination' };
      return { group: 'signIn', key: 'error.wrongCombinationAttemptsLeft', values: { count: attemptsLeft } };
    }
    case 'USER_LOCKED': {
      // When the lock ends, in the page's locale; a reset through the mailed passcode ends it now (ADR 0008).
      const lockedUntil = stringDetail(error, 'lockedUntil');
      if (lockedUntil !== null && !Number.isNaN(Date.parse(lockedUntil))) return { group: 'signIn', key: 'error.userLockedUntil', at: lockedUntil };
      return retryAfter === undefined
        ? { group: 'errors', key: 'userLocked' }
        : { group: 'signIn', key: 'error.userLocked', values: { count: minutesOf(retryAfter) } };
    }
    case 'DEVICE_LOCKED':
      return retryAfter === undefined
        ? { group: 'errors', key: 'deviceLocked' }
        : { group: 'signIn', key: 'error.deviceLocked', values: { count: minutesOf(retryAfter) } };
    case 'RATE_LIMITED':
      return { group: 'signIn', key: 'error.rateLimited', values: { count: minutesOf(retryAfter ?? 60) } };
    case 'OTP_INVALID': {
      const attemptsLeft = numberDetail(error, 'attemptsLeft');
      if (attemptsLeft === undefined) return { group: 'errors', key: 'incorrectPasscode' };
      return attemptsLeft > 0
        ? { group: 'signIn', key: 'error.otpInvalid', values: { count: attemptsLeft } }
        : { group: 'signIn', key: 'error.otpAttemptsUsed' };
    }
    case 'OTP_EXPIRED':
      return { group: 'signIn', key: 'error.otpExpired' };
    case 'VALIDATION_FAILED':
      return { group: 'signIn', key: 'error.validation' };
    default:
      return { group: 'errors', key: 'unexpected' };
  }
}

/** The next step after an answer of `user-auth/login`. */
export function nextSignInStep(
  answer:
    { data: { expires_in?: unknown; passwordCompromised?: unknown; recoveryCodesLeft?: unknown }; error?: undefined } | { data?: undefined; error: unknown },
): SignInStep {
  if (answer.data !== undefined) {
    return {
      kind: 'signed-in',
      expiresIn: typeof answer.data.expires_in === 'number' ? answer.data.expires_in : 0,
      passwordCompromised: answer.data.passwordCompromised === true,
      recoveryCodesLeft: typeof answer.data.recoveryCodesLeft === 'number' ? answer.data.recoveryCodesLeft : null,
    };
  }
  const error = asGatewayError(answer.error);
  const otpType = PASSCODE_CODES[error.code];
  if (otpType)
    return {
      kind: 'enter-passcode',
      otpType,
      maskedDestination: otpType === 'totp' ? null : stringDetail(error, 'maskedDestination'),
      breachedPassword: false,
    };
  // ADR 0009 "Breached passwords": the gateway mailed a login passcode to the account's e-mail.
  if (error.code === 'VBA_TOKEN_REQUIRED')
    return { kind: 'enter-passcode', otpType: 'email', maskedDestination: stringDetail(error, 'maskedDestination'), breachedPassword: true };
  if (error.code === 'OTP_REQUIRED') return { kind: 'choose-passcode-channel' };
  if (GLOBAL_ERROR_STATUSES.has(error.status)) return { kind: 'unavailable' };
  return { kind: 'refused', text: refusalText(error) };
}
