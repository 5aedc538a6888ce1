/**
 * SPEC §5 "Generic inputs: required message when empty, invalid message otherwise; selects and
 * checkboxes only required message. Default max length 100."
 */
import { fieldError, type FieldError } from './field-error';
import { compileSiteRegExp } from './site-regexp';

/** SPEC §5, §9: default input max length. */
export const DEFAULT_MAX_LENGTH = 100;

/**
 * Empty as far as "required" is concerned: nothing, a blank text, an unticked checkbox (`false`)
 * or an empty multi-select.
 */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  return Array.isArray(value) && value.length === 0;
}

/**
 * The required rule, decided here and never inside a format validator: `required` when the value
 * is empty and the field is required, else `null`. Selects and checkboxes are validated by this
 * alone (SPEC §5: they only ever show the required message).
 */
export function checkRequired(value: unknown, required: boolean): FieldError | null {
  return required && isEmptyValue(value) ? fieldError('required') : null;
}

/** `tooLong` with the limit as its `count` (a counted text, ADR 0013) when the value has more characters than allowed. */
export function validateMaxLength(value: string, maxLength: number = DEFAULT_MAX_LENGTH): FieldError | null {
  return [...value].length > maxLength ? tooLong(maxLength) : null;
}

export const tooLong = (maxLength: number): FieldError => fieldError('tooLong', { count: maxLength });

/** A free text input: the max length and, when the site gives one, its regexp. */
export function validateText(value: string, options: { maxLength?: number; regexp?: string } = {}): FieldError | null {
  const tooLong = validateMaxLength(value, options.maxLength);
  if (tooLong) return tooLong;
  const regexp = compileSiteRegExp(options.regexp);
  return regexp && !regexp.test(value) ? fieldError('invalid') : null;
}
