/**
 * What every validator answers: `null` when the value is valid, else a FieldError naming the
 * content key of the message (SPEC §5, §8 "Form error keys") and the values its placeholders take.
 */

/**
 * `required` and `invalid` are the generic messages (SPEC §5 "Generic inputs"); `error` is the
 * key of names, address parts and email (SPEC §5 "Error key error"); `invalidCharacter` is any
 * field's control or hidden character (ADR 0005 "Characters"); `tooLong` is a value over the
 * field's max length (SPEC §5, §9 "Default input max length 100"), its `count` the limit, so the
 * message states the rule rather than "check this field"; the rest are SPEC §8's.
 */
export type ErrorKey =
  | 'required'
  | 'invalid'
  | 'error'
  | 'invalidCharacter'
  | 'tooLong'
  | 'mustMatch'
  | 'passwordRulesError'
  | 'IncompleteFieldError'
  | 'incompleteFormateError'
  | 'invalidAgeError'
  | 'maxAgeError';

export interface FieldError {
  key: ErrorKey;
  /** Placeholder values of the message, e.g. `{ count: 2 }` for "{{count}}". */
  values?: Record<string, string | number>;
}

export function fieldError(key: ErrorKey, values?: Record<string, string | number>): FieldError {
  return values === undefined ? { key } : { key, values };
}
