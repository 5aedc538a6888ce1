import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../../src/api/gateway-api';
import { activationRefusal } from '../../../src/account/activation-refusals';

/** ADR 0009 "Activation": each refusal of activate-token to what the activate screen does next. */
const error = (status: number, code: string, extra: Partial<GatewayError> = {}): GatewayError => ({
  status,
  code,
  message: code,
  correlationId: null,
  ...extra,
});

describe('activation refusals: every activate-token code', () => {
  it.each([
    ['TOKEN_EXPIRED ends the form', error(400, 'TOKEN_EXPIRED'), { outcome: 'expired' }],
    ['TOKEN_INVALID ends the form', error(400, 'TOKEN_INVALID'), { outcome: 'invalid' }],
    ['ALREADY_ACTIVE ends the form: the account is active', error(409, 'ALREADY_ACTIVE'), { outcome: 'active' }],
    [
      'PASSWORD_INCORRECT with attempts left keeps the form, beside the password field',
      error(400, 'PASSWORD_INCORRECT', { fields: { password: 'incorrect' }, details: { attemptsLeft: 2 } }),
      {
        outcome: 'retry',
        refusal: {
          alert: { group: 'account', key: 'activate.passwordIncorrect', values: { count: 2 } },
          fields: { password: 'registrationPasswordIncorrect' },
        },
      },
    ],
    ['PASSWORD_INCORRECT with none left: the link is spent', error(400, 'PASSWORD_INCORRECT', { details: { attemptsLeft: 0 } }), { outcome: 'spent' }],
    [
      'PASSWORD_REQUIRED (an old client, or an empty field) names the field',
      error(400, 'PASSWORD_REQUIRED', { fields: { password: 'required' } }),
      { outcome: 'retry', refusal: { alert: { group: 'account', key: 'error.checkFields' }, fields: { password: 'required' } } },
    ],
    ["a 500 is the global alert's; the form stays to try again", error(500, 'INTERNAL_ERROR'), { outcome: 'retry', refusal: { alert: null, fields: {} } }],
    [
      'RATE_LIMITED reads as on the sign-in screens',
      error(429, 'RATE_LIMITED', { retryAfterSeconds: 120 }),
      { outcome: 'retry', refusal: { alert: expect.objectContaining({ group: expect.any(String) }), fields: {} } },
    ],
  ])('%s', (_name, failure, expected) => {
    expect(activationRefusal(failure)).toEqual(expected);
  });
});
