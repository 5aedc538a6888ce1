/**
 * The card's security code when a site asks for it (SPEC §3 `pan_capture.capture_cvv`): exactly three
 * digits, nothing else, no spaces. The code goes to the validation call only and is never kept (ADR 0001
 * "capture_cvv", ADR 0011); this rule is the one the card form and the gateway share.
 */
import { fieldError, type FieldError } from './field-error';

export const CVV_DIGITS = 3;
/** The most the input and the gateway read: room to type a wrong code and be told, no more. */
export const CVV_MAX_INPUT_LENGTH = 8;
/** The shape as a site regexp reads it, so the expected-format texts describe it like any digits-only field. */
export const CVV_PATTERN = `^[0-9]{${CVV_DIGITS}}$`;

/** `required` when empty, `invalid` with the expected length (`{ count: 3 }`) for anything but three digits. */
export function validateCvv(value: string): FieldError | null {
  if (value === '') return fieldError('required');
  return new RegExp(CVV_PATTERN).test(value) ? null : fieldError('invalid', { count: CVV_DIGITS });
}
