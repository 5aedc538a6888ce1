/**
 * SPEC §5 "National ID: cpf (11 digits, valid check digits, repeated-digit values rejected) or ssn
 * (no 000, 666 or 9xx area, no 00 group, no 0000 serial, a few known invalid numbers rejected).
 * Masks 000.000.000-00 and 000-00-0000; digits only for these; otherwise the regexp."
 * Generic input: key `invalid`.
 */
import { fieldError, type FieldError } from './field-error';
import { completeMaskedValue } from './masked-value';
import { compileSiteRegExp, meetsSiteRegExp } from './site-regexp';

export const CPF_MASK = '000.000.000-00';
export const SSN_MASK = '000-00-0000';

export type NationalIdType = 'cpf' | 'ssn' | 'other';

export interface NationalIdOptions {
  /** `national_id_type`; anything but cpf and ssn is validated by the site's mask and regexp. */
  type?: string;
  /** `national_id_mask`; cpf and ssn always use their own. */
  mask?: string;
  /** `national_id_regexp`, used when the type is neither cpf nor ssn. */
  regexp?: string;
}

/** The mask a national id field is formatted with: fixed for cpf and ssn, else the site's. */
export function nationalIdMask(type: string | undefined, siteMask: string | undefined): string | undefined {
  if (type === 'cpf') return CPF_MASK;
  if (type === 'ssn') return SSN_MASK;
  return siteMask;
}

/** Modulo-11 check digit over `digits`, weights counting down from `digits.length + 1`. */
function cpfCheckDigit(digits: string): number {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) sum += Number(digits[index]) * (digits.length + 1 - index);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** True for 11 digits whose last two are the cpf check digits and that are not all the same digit. */
export function isValidCpfDigits(digits: string): boolean {
  if (!/^[0-9]{11}$/.test(digits)) return false;
  // Stryker disable next-line Regex: `digits` is exactly eleven digits here, so dropping an anchor changes nothing
  if (/^(\d)\1{10}$/.test(digits)) return false;
  return cpfCheckDigit(digits.slice(0, 9)) === Number(digits[9]) && cpfCheckDigit(digits.slice(0, 10)) === Number(digits[10]);
}

/**
 * Numbers the SSA lists as never valid although they pass the area/group/serial rules: the
 * Woolworth wallet card, the 1940 SSA pamphlet, the LifeLock advertisement, and the common
 * specimen (the same list as python-stdnum's `us.ssn`, plus 123-45-6789).
 */
const KNOWN_INVALID_SSNS: ReadonlySet<string> = new Set(['078051120', '219099999', '457555462', '123456789']);

/** True for 9 digits with a valid area (not 000, 666, 900–999), group (not 00) and serial (not 0000). */
export function isValidSsnDigits(digits: string): boolean {
  if (!/^[0-9]{9}$/.test(digits) || KNOWN_INVALID_SSNS.has(digits)) return false;
  const area = digits.slice(0, 3);
  return area !== '000' && area !== '666' && area[0] !== '9' && digits.slice(3, 5) !== '00' && digits.slice(5) !== '0000';
}

export function validateCpf(value: string): FieldError | null {
  const digits = completeMaskedValue(CPF_MASK, value);
  // Stryker disable next-line ConditionalExpression: isValidCpfDigits refuses null too ("null" is no eleven digits); the check narrows the type
  return digits !== null && isValidCpfDigits(digits) ? null : fieldError('invalid');
}

export function validateSsn(value: string): FieldError | null {
  const digits = completeMaskedValue(SSN_MASK, value);
  // Stryker disable next-line ConditionalExpression: isValidSsnDigits refuses null too ("null" is no nine digits); the check narrows the type
  return digits !== null && isValidSsnDigits(digits) ? null : fieldError('invalid');
}

/**
 * Other types: the site's mask must be filled (see masked-value.ts) and its regexp must be met by the
 * value as shown through the mask or by its bare slot characters (`meetsSiteRegExp`, ADR 0005 "Masks
 * and regexps"). With neither, any non-empty value is accepted.
 */
export function validateNationalId(value: string, options: NationalIdOptions = {}): FieldError | null {
  if (options.type === 'cpf') return validateCpf(value);
  if (options.type === 'ssn') return validateSsn(value);
  const bare = options.mask ? completeMaskedValue(options.mask, value) : value;
  if (bare === null) return fieldError('invalid');
  const regexp = compileSiteRegExp(options.regexp);
  return regexp && !meetsSiteRegExp(regexp, value, options.mask, bare) ? fieldError('invalid') : null;
}
