/**
 * SPEC §5 "Bin: length equals bin_length (default 9), numeric, starts with 4." The value is the
 * first digits of the card, so it shares the card number's leading 4 (§5 "Card number").
 */
import { fieldError, type FieldError } from './field-error';

/** SPEC §9: default bin length 9 (sites set 8 through `bin_length`). */
export const DEFAULT_BIN_LENGTH = 9;
/**
 * SPEC §5 "Site table default: length 8, min age 16, attribute name bin; certain countries length 9, min
 * age 18": the `bin` attribute's length when the site sets no `bin_length` (the min age default is
 * DEFAULT_DOB_MIN_AGE, 16). The spec names no country, so a site of those countries sets `bin_length` "9"
 * and `dob_min_age` "18" itself (firstbank does).
 */
export const SITE_TABLE_BIN_LENGTH = 8;
/** SPEC §5 "six-digit verification": the card's first six digits, the issuer prefix the BIN table is keyed on. */
export const SIX_DIGIT_BIN_LENGTH = 6;

/** `invalid` with `{ length }`, the placeholder of the bin message ("the first {{length}} digits"). */
export function validateBin(value: string, binLength: number = DEFAULT_BIN_LENGTH): FieldError | null {
  const valid = value.length === binLength && /^4[0-9]*$/.test(value);
  return valid ? null : fieldError('invalid', { count: binLength });
}
