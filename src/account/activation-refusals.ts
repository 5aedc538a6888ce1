import { asGatewayError, refusalText } from '../api/gateway-error';
import { GLOBAL_ERROR_STATUSES } from '../app/error-catalogue';
import type { AccountRefusal } from './account-refusals';

/**
 * What the activate screen does with a refusal of `activate-token` (ADR 0009 "Activation"): the link is
 * over (`expired`, `invalid`, `spent` by its last wrong password, or its account is already `active`), or the form stays for another try
 * with the refusal's words and field errors. Pure, so every code is tested without a browser.
 */
export type ActivationRefusal =
  | { outcome: 'expired' | 'invalid' | 'spent' | 'active' }
  | {
      outcome: 'retry';
      refusal: AccountRefusal;
    };

const NO_FIELDS: Readonly<Record<string, string>> = {};

export function activationRefusal(failure: unknown): ActivationRefusal {
  const error = asGatewayError(failure);
  // §8's global alert says it; the form stays so the same password can be sent again.
  if (GLOBAL_ERROR_STATUSES.has(error.status)) return { outcome: 'retry', refusal: { alert: null, fields: NO_FIELDS } };
  switch (error.code) {
    case 'TOKEN_EXPIRED':
      return { outcome: 'expired' };
    case 'TOKEN_INVALID':
      return { outcome: 'invalid' };
    case 'ALREADY_ACTIVE':
      return { outcome: 'active' };
    case 'PASSWORD_INCORRECT': {
      const value = error.details?.attemptsLeft;
      const attemptsLeft = typeof value === 'number' && Number.isFinite(value) ? value : 0;
      if (attemptsLeft <= 0) return { outcome: 'spent' };
      return {
        outcome: 'retry',
        refusal: {
          alert: { group: 'account', key: 'activate.passwordIncorrect', values: { count: attemptsLeft } },
          fields: { password: 'registrationPasswordIncorrect' },
        },
      };
    }
    case 'PASSWORD_REQUIRED':
    case 'VALIDATION_FAILED':
      return { outcome: 'retry', refusal: { alert: { group: 'account', key: 'error.checkFields' }, fields: { ...error.fields } } };
    default:
      // RATE_LIMITED and anything unexpected read as on the sign-in screens.
      return { outcome: 'retry', refusal: { alert: refusalText(error), fields: NO_FIELDS } };
  }
}
