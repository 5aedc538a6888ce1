import { asGatewayError, refusalText, stringDetail, type TextRef } from '../api/gateway-error';
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

export type SignInStep =
  /** ADR 0009: `passwordCompromised` when the password is on the breached list; the person sets a new one first. */
  | { kind: 'signed-in'; expiresIn: number; passwordCompromised: boolean; backupCodesLeft: number | null }
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

/** The next step after an answer of `user-auth/login`. */
export function nextSignInStep(
  answer:
    { data: { expires_in?: unknown; passwordCompromised?: unknown; backupCodesLeft?: unknown }; error?: undefined } | { data?: undefined; error: unknown },
): SignInStep {
  if (answer.data !== undefined) {
    return {
      kind: 'signed-in',
      expiresIn: typeof answer.data.expires_in === 'number' ? answer.data.expires_in : 0,
      passwordCompromised: answer.data.passwordCompromised === true,
      backupCodesLeft: typeof answer.data.backupCodesLeft === 'number' ? answer.data.backupCodesLeft : null,
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
