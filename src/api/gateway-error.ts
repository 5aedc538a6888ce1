import type { GatewayError } from './gateway-api';

/**
 * A failed gateway call as the app shows it: any failure as the base query's GatewayError
 * (gateway-api.ts), and its code (ADR 0008 refusals, SPEC §8 defaults) as a content text. Every
 * screen that shows a refusal uses this, not only sign-in (auth/sign-in-flow.ts).
 */

/** A content text to show: a key of a content group and its placeholder values. */
export interface TextRef {
  group: 'errors' | 'signIn' | 'account';
  key: string;
  values?: Readonly<Record<string, string | number>>;
  /** An instant (ISO 8601) shown as `{{time}}` in the page's locale, e.g. when a lock ends. */
  at?: string;
  /** The page that gets the person out of it, offered as a link in the alert: a locked account's password reset. */
  wayOut?: 'recovery';
}

/** ADR 0008: the sign-in page warns from this many wrong passwords left before the account locks. */
export const WARN_FROM_ATTEMPTS_LEFT = 2;

/** Retry-After as whole minutes for a text, at least 1. */
function minutesOf(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

function numberDetail(error: GatewayError, name: string): number | undefined {
  const value = error.details?.[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A non-empty text extra of the error body (ADR 0008: maskedDestination, lockedUntil), or null. */
export function stringDetail(error: GatewayError, name: string): string | null {
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
      // Every lock text says to reset the password, so each offers the way there.
      if (lockedUntil !== null && !Number.isNaN(Date.parse(lockedUntil)))
        return { group: 'signIn', key: 'error.userLockedUntil', at: lockedUntil, wayOut: 'recovery' };
      return retryAfter === undefined
        ? { group: 'errors', key: 'userLocked', wayOut: 'recovery' }
        : { group: 'signIn', key: 'error.userLocked', values: { count: minutesOf(retryAfter) }, wayOut: 'recovery' };
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
    case 'OTP_SPENT':
      return { group: 'signIn', key: 'error.otpSpent' };
    case 'VALIDATION_FAILED':
      return { group: 'signIn', key: 'error.validation' };
    default:
      return { group: 'errors', key: 'unexpected' };
  }
}

/**
 * A refusal after which the code typed can never pass (ADR 0008): spent (used, or its attempts used up), expired,
 * or wrong with no attempt left. The screen then says so, disables Verify and offers a new code.
 */
export function isCodeSpent(failure: unknown): boolean {
  const error = asGatewayError(failure);
  return error.code === 'OTP_SPENT' || error.code === 'OTP_EXPIRED' || (error.code === 'OTP_INVALID' && numberDetail(error, 'attemptsLeft') === 0);
}
