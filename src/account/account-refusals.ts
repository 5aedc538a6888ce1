import type { GatewayError } from '../api/gateway-api';
import { asGatewayError, refusalText, WARN_FROM_ATTEMPTS_LEFT, type TextRef } from '../api/gateway-error';
import { GLOBAL_ERROR_STATUSES } from '../app/error-catalogue';

/**
 * What a screen of the account lifecycle shows for a refusal of ADR 0009's calls: a form-level
 * text, and errors next to the fields they are about (field path → form error key, SiteForm
 * `serverErrors`). Pure, so every code is tested without a browser.
 */
export interface AccountRefusal {
  /** Null when §8's global alert already says it (0, 500, 502, 524). */
  alert: TextRef | null;
  fields: Readonly<Record<string, string>>;
}

const NO_FIELDS: Readonly<Record<string, string>> = {};
const account = (key: string, values?: TextRef['values']): TextRef => ({ group: 'account', key, ...(values ? { values } : {}) });

function attemptsLeftOf(error: GatewayError): number | undefined {
  const value = error.details?.attemptsLeft;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * VALIDATION_FAILED `fields` as the form's paths: the registration body nests the form under `user`
 * (ADR 0009), the form does not, so `fieldPrefix` (`user.`) is taken off.
 */
function formFieldsOf(error: GatewayError, fieldPrefix: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [path, key] of Object.entries(error.fields ?? {})) fields[path.startsWith(fieldPrefix) ? path.slice(fieldPrefix.length) : path] = key;
  return fields;
}

export function accountRefusal(failure: unknown, options: { fieldPrefix?: string } = {}): AccountRefusal {
  const error = asGatewayError(failure);
  if (GLOBAL_ERROR_STATUSES.has(error.status)) return { alert: null, fields: NO_FIELDS };
  switch (error.code) {
    case 'VALIDATION_FAILED':
      return { alert: account('error.checkFields'), fields: formFieldsOf(error, options.fieldPrefix ?? '') };
    case 'CAPTCHA_REQUIRED':
      return { alert: account('error.captchaRequired'), fields: NO_FIELDS };
    case 'CURRENT_PASSWORD_INCORRECT':
      // §8 "Current password is incorrect.": next to the field it is about.
      return { alert: account('error.checkFields'), fields: { currentPassword: 'currentPasswordIncorrect' } };
    case 'PASSWORD_REUSED':
      return { alert: account('error.passwordReused'), fields: NO_FIELDS };
    case 'PASSWORD_COMPROMISED':
      return { alert: account('error.passwordCompromised'), fields: NO_FIELDS };
    case 'PASSCODE_INVALID': {
      const attemptsLeft = attemptsLeftOf(error);
      if (attemptsLeft === undefined) return { alert: { group: 'errors', key: 'incorrectRecoveryCode' }, fields: NO_FIELDS };
      return { alert: attemptsLeft > 0 ? account('error.passcodeInvalid', { count: attemptsLeft }) : account('error.passcodeAttemptsUsed'), fields: NO_FIELDS };
    }
    case 'PASSWORD_INCORRECT': {
      // ADR 0009 "Deletion": the password that proves presence, beside its field; the last attempts counted down as at sign-in.
      const attemptsLeft = attemptsLeftOf(error);
      const warning = attemptsLeft !== undefined && attemptsLeft > 0 && attemptsLeft <= WARN_FROM_ATTEMPTS_LEFT;
      return {
        alert: warning ? { group: 'signIn', key: 'error.wrongCombinationAttemptsLeft', values: { count: attemptsLeft } } : account('error.checkFields'),
        fields: { currentPassword: 'currentPasswordIncorrect' },
      };
    }
    case 'DELETE_NOT_ALLOWED':
      return { alert: account('delete.notAllowed'), fields: NO_FIELDS };
    default:
      // RATE_LIMITED and anything unexpected read as on the sign-in screens.
      return { alert: refusalText(error), fields: NO_FIELDS };
  }
}
