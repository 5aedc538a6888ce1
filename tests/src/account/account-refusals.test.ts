import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../../src/api/gateway-api';
import { accountRefusal } from '../../../src/account/account-refusals';

/** ADR 0009's error codes, each to what the account screens show (SPEC §8 texts, fields next to the fields). */
const error = (status: number, code: string, extra: Partial<GatewayError> = {}): GatewayError => ({
  status,
  code,
  message: code,
  correlationId: null,
  ...extra,
});

describe('account refusals: every ADR 0009 code', () => {
  it.each([
    [
      'VALIDATION_FAILED names fields (the `user.` prefix of the registration body taken off)',
      error(400, 'VALIDATION_FAILED', { fields: { 'user.email': 'error', 'cards.0.pan': 'invalid' } }),
      { fieldPrefix: 'user.' },
      { alert: { group: 'account', key: 'error.checkFields' }, fields: { email: 'error', 'cards.0.pan': 'invalid' } },
    ],
    ['CAPTCHA_REQUIRED', error(400, 'CAPTCHA_REQUIRED'), {}, { alert: { group: 'account', key: 'error.captchaRequired' }, fields: {} }],
    [
      'CURRENT_PASSWORD_INCORRECT: next to the current-password field',
      error(400, 'CURRENT_PASSWORD_INCORRECT'),
      {},
      { alert: { group: 'account', key: 'error.checkFields' }, fields: { currentPassword: 'currentPasswordIncorrect' } },
    ],
    ['PASSWORD_REUSED', error(400, 'PASSWORD_REUSED'), {}, { alert: { group: 'account', key: 'error.passwordReused' }, fields: {} }],
    ['PASSWORD_COMPROMISED', error(400, 'PASSWORD_COMPROMISED'), {}, { alert: { group: 'account', key: 'error.passwordCompromised' }, fields: {} }],
    [
      'PASSCODE_INVALID with attempts left',
      error(400, 'PASSCODE_INVALID', { details: { attemptsLeft: 3 } }),
      {},
      { alert: { group: 'account', key: 'error.passcodeInvalid', values: { count: 3 } }, fields: {} },
    ],
    [
      'PASSCODE_INVALID, no attempts left',
      error(400, 'PASSCODE_INVALID', { details: { attemptsLeft: 0 } }),
      {},
      { alert: { group: 'account', key: 'error.passcodeAttemptsUsed' }, fields: {} },
    ],
    [
      'PASSCODE_INVALID without a count: §8 recovery code text',
      error(400, 'PASSCODE_INVALID'),
      {},
      { alert: { group: 'errors', key: 'incorrectRecoveryCode' }, fields: {} },
    ],
    ['DELETE_NOT_ALLOWED', error(403, 'DELETE_NOT_ALLOWED'), {}, { alert: { group: 'account', key: 'delete.notAllowed' }, fields: {} }],
    [
      'PASSWORD_INCORRECT (delete-profile): next to the current-password field',
      error(403, 'PASSWORD_INCORRECT', { details: { attemptsLeft: 4 } }),
      {},
      { alert: { group: 'account', key: 'error.checkFields' }, fields: { currentPassword: 'currentPasswordIncorrect' } },
    ],
    [
      'PASSWORD_INCORRECT with 2 attempts left: counted down as at sign-in',
      error(403, 'PASSWORD_INCORRECT', { details: { attemptsLeft: 2 } }),
      {},
      { alert: { group: 'signIn', key: 'error.wrongCombinationAttemptsLeft', values: { count: 2 } }, fields: { currentPassword: 'currentPasswordIncorrect' } },
    ],
    [
      'RATE_LIMITED reads as on sign-in',
      error(429, 'RATE_LIMITED', { retryAfterSeconds: 120 }),
      {},
      { alert: { group: 'signIn', key: 'error.rateLimited', values: { count: 2 } }, fields: {} },
    ],
    ['anything else: §8 "An unexpected error occurred."', error(403, 'XSRF_TOKEN_INVALID'), {}, { alert: { group: 'errors', key: 'unexpected' }, fields: {} }],
    ['500: §8 global alert only', error(500, 'INTERNAL'), {}, { alert: null, fields: {} }],
    ['network: §8 global alert only', error(0, 'NETWORK_ERROR'), {}, { alert: null, fields: {} }],
  ] as const)('%s', (_name, failure, options, expected) => {
    expect(accountRefusal(failure, options)).toEqual(expected);
  });
});
