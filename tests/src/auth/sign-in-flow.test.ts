import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../../src/api/gateway-api';
import { loginFormData } from '../../../src/api/user-auth-api';
import { nextSignInStep, refusalText } from '../../../src/auth/sign-in-flow';

/** ADR 0008's answers of user-auth/login, each to its step (SPEC §2 sign-in screens, §8 texts). */
const error = (status: number, code: string, extra: Partial<GatewayError> = {}): { error: GatewayError } => ({
  error: { status, code, message: code, correlationId: null, ...extra },
});

describe('the sign-in flow: next step per answer', () => {
  it.each([
    ['200', { data: { status: 'SIGNED_IN', expires_in: 1800 } }, { kind: 'signed-in', expiresIn: 1800, passwordCompromised: false, recoveryCodesLeft: null }],
    [
      '200 with a breached password (ADR 0009)',
      { data: { status: 'SIGNED_IN', expires_in: 1800, passwordCompromised: true } },
      { kind: 'signed-in', expiresIn: 1800, passwordCompromised: true, recoveryCodesLeft: null },
    ],
    [
      'OTP_REQUIRED_EMAIL',
      error(401, 'OTP_REQUIRED_EMAIL', { details: { maskedDestination: 'a***@example.com' } }),
      { kind: 'enter-passcode', otpType: 'email', maskedDestination: 'a***@example.com', breachedPassword: false },
    ],
    [
      'OTP_REQUIRED_PHONE',
      error(401, 'OTP_REQUIRED_PHONE', { details: { maskedDestination: '*** *** 4321' } }),
      { kind: 'enter-passcode', otpType: 'sms', maskedDestination: '*** *** 4321', breachedPassword: false },
    ],
    [
      'OTP_REQUIRED_EMAIL without a destination',
      error(401, 'OTP_REQUIRED_EMAIL'),
      { kind: 'enter-passcode', otpType: 'email', maskedDestination: null, breachedPassword: false },
    ],
    [
      'VBA_TOKEN_REQUIRED: the mailed passcode proves a breached password (ADR 0009)',
      error(401, 'VBA_TOKEN_REQUIRED', { details: { maskedDestination: 'w***@example.com' } }),
      { kind: 'enter-passcode', otpType: 'email', maskedDestination: 'w***@example.com', breachedPassword: true },
    ],
    [
      'MFA_OTP_REQUIRED',
      error(401, 'MFA_OTP_REQUIRED', { details: { maskedDestination: 'ignored' } }),
      { kind: 'enter-passcode', otpType: 'totp', maskedDestination: null, breachedPassword: false },
    ],
    ['OTP_REQUIRED', error(401, 'OTP_REQUIRED'), { kind: 'choose-passcode-channel' }],
    ['BAD_CREDENTIALS', error(401, 'BAD_CREDENTIALS'), { kind: 'refused', text: { group: 'errors', key: 'wrongCombination' } }],
    ['500', error(500, 'INTERNAL'), { kind: 'unavailable' }],
    ['network', error(0, 'NETWORK_ERROR'), { kind: 'unavailable' }],
  ] as const)('%s', (_name, answer, step) => {
    expect(nextSignInStep(answer)).toEqual(step);
  });
});

describe('refusal texts (§8 defaults, content with Retry-After minutes and attempts left)', () => {
  it.each([
    [error(423, 'USER_LOCKED', { retryAfterSeconds: 900 }).error, { group: 'signIn', key: 'error.userLocked', values: { count: 15 } }],
    // ADR 0008: the page says when the lock ends, in its own locale (use-refusal-text formats `at`).
    [
      error(423, 'USER_LOCKED', { retryAfterSeconds: 900, details: { lockedUntil: '2026-11-26T14:05:00.000Z' } }).error,
      { group: 'signIn', key: 'error.userLockedUntil', at: '2026-11-26T14:05:00.000Z' },
    ],
    [
      error(423, 'USER_LOCKED', { retryAfterSeconds: 900, details: { lockedUntil: 'soon' } }).error,
      { group: 'signIn', key: 'error.userLocked', values: { count: 15 } },
    ],
    // ADR 0008: a warning before the last wrong passwords, as a counted text.
    [error(401, 'BAD_CREDENTIALS', { details: { attemptsLeft: 4 } }).error, { group: 'errors', key: 'wrongCombination' }],
    [
      error(401, 'BAD_CREDENTIALS', { details: { attemptsLeft: 2 } }).error,
      { group: 'signIn', key: 'error.wrongCombinationAttemptsLeft', values: { count: 2 } },
    ],
    [
      error(401, 'BAD_CREDENTIALS', { details: { attemptsLeft: 1 } }).error,
      { group: 'signIn', key: 'error.wrongCombinationAttemptsLeft', values: { count: 1 } },
    ],
    [error(423, 'USER_LOCKED').error, { group: 'errors', key: 'userLocked' }],
    [error(423, 'DEVICE_LOCKED', { retryAfterSeconds: 30 }).error, { group: 'signIn', key: 'error.deviceLocked', values: { count: 1 } }],
    [error(423, 'DEVICE_LOCKED').error, { group: 'errors', key: 'deviceLocked' }],
    [error(429, 'RATE_LIMITED', { retryAfterSeconds: 121 }).error, { group: 'signIn', key: 'error.rateLimited', values: { count: 3 } }],
    [error(401, 'OTP_INVALID', { details: { attemptsLeft: 4 } }).error, { group: 'signIn', key: 'error.otpInvalid', values: { count: 4 } }],
    [error(401, 'OTP_INVALID', { details: { attemptsLeft: 0 } }).error, { group: 'signIn', key: 'error.otpAttemptsUsed' }],
    [error(401, 'OTP_INVALID', { details: { attemptsLeft: 'three' } }).error, { group: 'errors', key: 'incorrectPasscode' }],
    [error(401, 'OTP_EXPIRED').error, { group: 'signIn', key: 'error.otpExpired' }],
    [error(400, 'VALIDATION_FAILED').error, { group: 'signIn', key: 'error.validation' }],
    [error(403, 'XSRF_TOKEN_MISSING').error, { group: 'errors', key: 'unexpected' }],
    [
      { name: 'TypeError', message: 'could not build' },
      { group: 'errors', key: 'unexpected' },
    ],
  ])('%o → %o', (failure, text) => {
    expect(refusalText(failure)).toEqual(text);
  });
});

describe('§3 login payload as multipart parts', () => {
  it('always grant_type=password and init_login=true; otp parts only on the passcode step', () => {
    const parts = (form: FormData) => Object.fromEntries([...form.entries()].map(([name, value]) => [name, String(value)]));
    expect(parts(loginFormData({ siteId: 'eurobank', locale: 'de_de', username: 'a@example.com', password: 'pw' }))).toEqual({
      username: 'a@example.com',
      password: 'pw',
      grant_type: 'password',
      siteId: 'eurobank',
      locale: 'de_de',
      init_login: 'true',
    });
    expect(
      parts(loginFormData({ siteId: 's', locale: 'en_us', username: 'u', password: 'p', otp: '123456', otpType: 'sms', trustDevice: false })),
    ).toMatchObject({
      otp: '123456',
      otp_type: 'sms',
      trust_device: 'false',
    });
    // ADR 0009 "Breached passwords": the mailed code goes as vba_token, with no otp or otp_type.
    const vba = parts(loginFormData({ siteId: 's', locale: 'en_us', username: 'u', password: 'p', vbaToken: '654321', trustDevice: false }));
    expect(vba).toMatchObject({ vba_token: '654321', trust_device: 'false' });
    expect(vba).not.toHaveProperty('otp');
    expect(vba).not.toHaveProperty('otp_type');
  });
});
