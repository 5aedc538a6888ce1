/**
 * SPEC §5 "Postal code: optional mask (default 00000-000) and regexp, auto-formatted."
 * Generic input: key `invalid`.
 */
import { fieldError, type FieldError } from './field-error';
import { completeMaskedValue } from './masked-value';
import { compileSiteRegExp, meetsSiteRegExp } from './site-regexp';

export const DEFAULT_POSTAL_CODE_MASK = '00000-000';

export interface PostalCodeOptions {
  /** `postal_code_mask`. */
  mask?: string;
  /** `postal_code_regexp`. */
  regexp?: string;
}

/**
 * The mask a postal code is formatted and checked with. The default applies only when the site
 * sets neither a mask nor a regexp: a site with a regexp alone (vppcards' UK postcodes) describes
 * a shape the Brazilian default mask would refuse.
 */
export function postalCodeMask(options: PostalCodeOptions): string | undefined {
  if (options.mask) return options.mask;
  return options.regexp ? undefined : DEFAULT_POSTAL_CODE_MASK;
}

export function validatePostalCode(value: string, options: PostalCodeOptions = {}): FieldError | null {
  const mask = postalCodeMask(options);
  const bare = mask ? completeMaskedValue(mask, value) : value;
  if (bare === null) return fieldError('invalid');
  const regexp = compileSiteRegExp(options.regexp);
  return regexp && !meetsSiteRegExp(regexp, value, mask, bare) ? fieldError('invalid') : null;
}
