/**
 * SPEC §7 `POST user-mgmt/user/alias` (body `alias`, `aliasType`), as docs/decisions/0022-declared-calls.md
 * fixes it: a second name for an account on one site, unique on that site. Shared by the gateway
 * (which decides) and any form that offers it (which may check first).
 */
import { validateCharacters } from '../validators/characters';
import { validateEmail } from '../validators/email';
import { fieldError, type FieldError } from '../validators/field-error';

/** USERNAME: a handle shown instead of the e-mail address; EMAIL: a second address that reaches the holder. */
export const ALIAS_TYPES = ['USERNAME', 'EMAIL'] as const;
export type AliasType = (typeof ALIAS_TYPES)[number];

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 32;
/** EMAIL aliases follow SPEC §5's address rule, whose longest address is 254 characters. */
export const ALIAS_MAX_LENGTH = 254;

/**
 * ASCII letters and digits, with single `.`, `_` or `-` between them: no look-alike letters of other
 * scripts (a Cyrillic "а" for a Latin "a") can make a second handle that reads the same.
 */
const USERNAME = /^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$/;

/** `null` when `alias` may be stored as `type`; else the error key for the `alias` field. */
export function validateAlias(type: AliasType, alias: string): FieldError | null {
  if (alias.trim() === '') return fieldError('required');
  const characters = validateCharacters(alias);
  if (characters) return characters;
  if (type === 'EMAIL') return validateEmail(alias);
  if (alias.length < USERNAME_MIN_LENGTH || alias.length > USERNAME_MAX_LENGTH || !USERNAME.test(alias)) return fieldError('invalid');
  return null;
}

/**
 * The form uniqueness is decided on: EMAIL trimmed, both lower-cased, so "Ana" and "ana" are one
 * alias and an address differing only by case reaches the same mailbox.
 */
export function normaliseAlias(type: AliasType, alias: string): string {
  return (type === 'EMAIL' ? alias.trim() : alias).toLowerCase();
}
