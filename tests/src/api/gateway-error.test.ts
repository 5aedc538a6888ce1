import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../../src/api/gateway-api';
import { refusalText } from '../../../src/api/gateway-error';

/** A refusal of ADR 0008's calls as the base query answers it. */
const refusal = (status: number, code: string, extra: Partial<GatewayError> = {}): GatewayError => ({
  status,
  code,
  message: code,
  correlationId: null,
  ...extra,
});

describe('refusal texts (§8 defaults, content with Retry-After minutes and attempts left; a lock offers the password reset)', () => {
  it.each([
    [refusal(423, 'USER_LOCKED', { retryAfterSeconds: 900 }), { group: 'signIn', key: 'error.userLocked', values: { count: 15 }, wayOut: 'recovery' }],
    // ADR 0008: the page says when the lock ends, in its own locale (use-refusal-text formats `at`).
    [
      refusal(423, 'USER_LOCKED', { retryAfterSeconds: 900, details: { lockedUntil: '2026-11-26T14:05:00.000Z' } }),
      { group: 'signIn', key: 'error.userLockedUntil', at: '2026-11-26T14:05:00.000Z', wayOut: 'recovery' },
    ],
    [
      refusal(423, 'USER_LOCKED', { retryAfterSeconds: 900, details: { lockedUntil: 'soon' } }),
      { group: 'signIn', key: 'error.userLocked', values: { count: 15 }, wayOut: 'recovery' },
    ],
    // ADR 0008: a warning before the last wrong passwords, as a counted text.
    [refusal(401, 'BAD_CREDENTIALS', { details: { attemptsLeft: 4 } }), { group: 'errors', key: 'wrongCombination' }],
    [refusal(401, 'BAD_CREDENTIALS', { details: { attemptsLeft: 2 } }), { group: 'signIn', key: 'error.wrongCombinationAttemptsLeft', values: { count: 2 } }],
    [refusal(401, 'BAD_CREDENTIALS', { details: { attemptsLeft: 1 } }), { group: 'signIn', key: 'error.wrongCombinationAttemptsLeft', values: { count: 1 } }],
    [refusal(423, 'USER_LOCKED'), { group: 'errors', key: 'userLocked', wayOut: 'recovery' }],
    [refusal(423, 'DEVICE_LOCKED', { retryAfterSeconds: 30 }), { group: 'signIn', key: 'error.deviceLocked', values: { count: 1 } }],
    [refusal(423, 'DEVICE_LOCKED'), { group: 'errors', key: 'deviceLocked' }],
    [refusal(429, 'RATE_LIMITED', { retryAfterSeconds: 121 }), { group: 'signIn', key: 'error.rateLimited', values: { count: 3 } }],
    [refusal(401, 'OTP_INVALID', { details: { attemptsLeft: 4 } }), { group: 'signIn', key: 'error.otpInvalid', values: { count: 4 } }],
    [refusal(401, 'OTP_INVALID', { details: { attemptsLeft: 0 } }), { group: 'signIn', key: 'error.otpAttemptsUsed' }],
    [refusal(401, 'OTP_INVALID', { details: { attemptsLeft: 'three' } }), { group: 'errors', key: 'incorrectPasscode' }],
    [refusal(401, 'OTP_EXPIRED'), { group: 'signIn', key: 'error.otpExpired' }],
    [refusal(400, 'VALIDATION_FAILED'), { group: 'signIn', key: 'error.validation' }],
    [refusal(403, 'XSRF_TOKEN_MISSING'), { group: 'errors', key: 'unexpected' }],
    [
      { name: 'TypeError', message: 'could not build' },
      { group: 'errors', key: 'unexpected' },
    ],
  ])('%o → %o', (failure, text) => {
    expect(refusalText(failure)).toEqual(text);
  });
});
