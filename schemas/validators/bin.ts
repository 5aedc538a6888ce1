/**
 * SPEC §5 "Bin: length equals bin_length (default 9), numeric, starts with 4." The value is the
 * first digits of the card, so it shares the card number's leading 4 (§5 "Card number").
 */
import { fieldError, type FieldError } from './field-error';

/** SPEC §9: default bin length 9 (sites set 8 through `bin_length`). */
export const DEFAULT_BIN_LENGTH = 9;

/** `invalid` with `{ length }`, the placeholder of the bin message ("the first {{length}} digits"). */
export function validateBin(value: string, binLength: number = DEFAULT_BIN_LENGTH): FieldError | null {
  const valid = value.length === binLength && /^4[0-9]*$/.test(value);
  return valid ? null : fieldError('invalid', { count: binLength });
}
