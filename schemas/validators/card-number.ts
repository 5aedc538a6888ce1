/**
 * SPEC §5 "Card number: {product}, 16 digits starting with 4, groups of four with optional spaces
 * (standalone requires single spaces), spaces ignored, input max 19 (configurable). Auto-formatted
 * as typed." Plus the Luhn check, which the product adds to SPEC §5 (ADR 0005). Key `invalid`: the
 * screen shows the site's configured card error text (SPEC §5 "else configured error text").
 */
import { fieldError, type FieldError } from './field-error';

/** SPEC §5, §9: 16 digits. */
export const CARD_NUMBER_DIGITS = 16;
/** SPEC §5, §9: 16 digits and 3 spaces; `pan_capture.maxLength` may change it. */
export const CARD_NUMBER_MAX_INPUT_LENGTH = 19;

export interface CardNumberOptions {
  /** The standalone card form (SPEC §2 "variant isVpp"): groups must be separated by single spaces. */
  standalone?: boolean;
  /** `pan_capture.maxLength`. */
  maxInputLength?: number;
}

/** Luhn (ISO/IEC 7812-1): doubling every second digit from the right, the sum ends in 0. */
export function isLuhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  for (let fromRight = 0; fromRight < digits.length; fromRight++) {
    const digit = Number(digits[digits.length - 1 - fromRight]);
    const weighted = fromRight % 2 === 1 ? digit * 2 : digit;
    // Stryker disable next-line AssignmentOperator: subtracting gives the opposite sum, a multiple of 10 exactly when the sum is (-0 === 0)
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return sum % 10 === 0;
}

const STANDALONE_SHAPE = /^[0-9]{4} [0-9]{4} [0-9]{4} [0-9]{4}$/;

export function validateCardNumber(value: string, options: CardNumberOptions = {}): FieldError | null {
  if (value.length > (options.maxInputLength ?? CARD_NUMBER_MAX_INPUT_LENGTH)) return fieldError('invalid');
  if (options.standalone && !STANDALONE_SHAPE.test(value)) return fieldError('invalid');
  const digits = value.replace(/ /g, '');
  const valid = digits.length === CARD_NUMBER_DIGITS && digits.startsWith('4') && isLuhnValid(digits);
  return valid ? null : fieldError('invalid');
}

/** The typed text as the input shows it: its digits (at most 16) in groups of four. */
export function formatCardNumber(raw: string): string {
  const digits = raw.replace(/[^0-9]/g, '').slice(0, CARD_NUMBER_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * SPEC §5 "Masking: 4-character value shows three masked groups plus four digits; longer values
 * mask all but last four": "1234" gives "XXXX XXXX XXXX 1234", "4111 1111 1111 1111" gives
 * "XXXX XXXX XXXX 1111" (spaces are kept). A value shorter than four has nothing to mask.
 */
export function maskCardNumber(value: string): string {
  if (value.length === 4) return `XXXX XXXX XXXX ${value}`;
  const characters = [...value];
  let toKeep = 4;
  for (let index = characters.length - 1; index >= 0; index--) {
    if (characters[index] === ' ') continue;
    if (toKeep > 0) toKeep--;
    else characters[index] = 'X';
  }
  return characters.join('');
}
