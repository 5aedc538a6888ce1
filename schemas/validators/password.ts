/**
 * SPEC §5 "Password: at least 8 characters with digit, lowercase, uppercase, special character and
 * no whitespace. Error passwordRulesError carries a count of failed rules. Confirm must equal
 * password: error mustMatch." "Must differ from the last 4 passwords" needs the history, so the
 * gateway checks it, not this pure module.
 */
import { fieldError, type FieldError } from './field-error';

/** SPEC §9: minimum password length 8. */
export const PASSWORD_MIN_LENGTH = 8;

export type PasswordRule = 'length' | 'digit' | 'lowercase' | 'uppercase' | 'special' | 'noWhitespace';
export interface PasswordRuleResult {
  rule: PasswordRule;
  passed: boolean;
}

/**
 * Letters are Unicode-aware ("É" is an uppercase letter); a special character is anything that is
 * neither a letter, a number nor whitespace, so "_" counts as special.
 */
const PASSWORD_RULES: ReadonlyArray<readonly [PasswordRule, (password: string) => boolean]> = [
  ['length', (password) => [...password].length >= PASSWORD_MIN_LENGTH],
  ['digit', (password) => /[0-9]/.test(password)],
  ['lowercase', (password) => /\p{Ll}/u.test(password)],
  ['uppercase', (password) => /\p{Lu}/u.test(password)],
  ['special', (password) => /[^\p{L}\p{N}\s]/u.test(password)],
  ['noWhitespace', (password) => !/\s/.test(password)],
];

/** Every rule in display order with its outcome, for the live checklist under the field. */
export function passwordRuleResults(value: string): PasswordRuleResult[] {
  return PASSWORD_RULES.map(([rule, passes]) => ({ rule, passed: passes(value) }));
}

/** `passwordRulesError` with `{ count }` = how many rules the value fails. */
export function validatePassword(value: string): FieldError | null {
  const count = passwordRuleResults(value).filter((result) => !result.passed).length;
  return count === 0 ? null : fieldError('passwordRulesError', { count });
}

/** `password` undefined (the caller has none to compare with) matches no confirmation: it is never accepted blind. */
export function validateConfirmPassword(confirm: string, password: string | undefined): FieldError | null {
  return confirm === password ? null : fieldError('mustMatch');
}
