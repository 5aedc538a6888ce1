/**
 * SPEC §5 "Phone: optional regexp and mask; default generic international pattern; pt_br requires
 * a mobile pattern with 9 first. Mask (00) 00000-0000 for pt_br, 0000 0000 for Qatar locales.
 * Auto-formatted; length must equal the mask digit count." Generic input: key `invalid`.
 */
import { maskSlotCount } from '../site-config/mask';
import { fieldError, type FieldError } from './field-error';
import { compileSiteRegExp, meetsSiteRegExp } from './site-regexp';

export interface PhoneOptions {
  /** `phone_mask`, e.g. "(00) 00000-0000". */
  mask?: string;
  /** `phone_regexp`; met by the value as shown through the mask or by the bare digits (ADR 0005 "Masks and regexps"). */
  regexp?: string;
  /** The page locale (xx_yy); pt_br adds the Brazilian mobile rule. */
  locale?: string;
}

/** Digits with the separators people and masks use; a `+` only in front. */
const PHONE_CHARACTERS = /^\+?[0-9 ()./-]+$/;
/** E.164 allows at most 15 digits; 7 is the shortest subscriber number in common use. */
const INTERNATIONAL_DIGITS = /^[0-9]{7,15}$/;
/** Brazilian mobile: two-digit area code (no 0 in it), then 9, then eight digits. */
const BRAZIL_MOBILE_DIGITS = /^[1-9]{2}9[0-9]{8}$/;

export function validatePhone(value: string, options: PhoneOptions = {}): FieldError | null {
  const phone = value.trim();
  if (!PHONE_CHARACTERS.test(phone)) return fieldError('invalid');
  const digits = phone.replace(/[^0-9]/g, '');
  const { mask } = options;
  if (mask && digits.length !== maskSlotCount(mask)) return fieldError('invalid');
  if (options.locale === 'pt_br' && !BRAZIL_MOBILE_DIGITS.test(digits)) return fieldError('invalid');

  const regexp = compileSiteRegExp(options.regexp);
  if (regexp) return meetsSiteRegExp(regexp, phone, mask, digits) ? null : fieldError('invalid');
  return INTERNATIONAL_DIGITS.test(digits) ? null : fieldError('invalid');
}
