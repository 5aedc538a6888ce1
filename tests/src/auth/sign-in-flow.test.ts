import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../../src/api/gateway-api';
import { loginFormData } from '../../../src/api/user-auth-api';
import { nextSignInStep } from '../../../src/auth/sign-in-flow';

/** ADR 0008's answers of user-auth/login, each to its step (SPEC §2 sign-in screens, §8 texts). */
const error = (status: number, code: string, extra: Partial<GatewayError> = {}): { error: GatewayError } => ({
  error: { status, code, message: code, correlationId: null, ...extra },
});

describe('the sign-in flow: next step per answer', () => {
  it.each([
    ['200', { data: { status: 'SIGNED_IN', expires_in: 1800 } }, { kind: 'signed-in', expiresIn: 1800, passwordCompromised: false, backupCodesLeft: null }],
    [
      '200 with a breached password (ADR 0009)',
      { data: { status: 'SIGNED_IN', expires_in: 1800, passwordCompromised: true } },
      { kind: 'signed-in', expiresIn: 1800, passwordCompromised: true, backupCodesLeft: null },
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
