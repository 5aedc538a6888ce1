/**
 * SPEC §5 "Names and address parts: empty or containing any of .*+?^${}()<>|[]\ is rejected.
 * Address parts also reject HTML-like tags, http, https, :// , //, ./ and ../." Error key `error`.
 * Emptiness is the caller's required rule (generic.ts).
 */
import { fieldError, type FieldError } from './field-error';

/** The characters a name may never contain: the regexp metacharacters of SPEC §5. */
const NAME_FORBIDDEN_CHARACTER = /[.*+?^${}()<>|[\]\\]/;
/**
 * The address-only rules. Tags (`<`, `>`), `./` and `../` (`.`) are already refused by the
 * forbidden characters, and `://` contains `//`, so what is left to test is `http` (which covers
 * `https`) and `//`.
 */
const ADDRESS_FORBIDDEN_SEQUENCE = /http|\/\//i;

/** first_name, last_name and other person names. */
export function validateName(value: string): FieldError | null {
  return NAME_FORBIDDEN_CHARACTER.test(value) ? fieldError('error') : null;
}

/** street, number, neighborhood, additionalInformation, city, state (SPEC §3 "Address"). */
export function validateAddressPart(value: string): FieldError | null {
  return NAME_FORBIDDEN_CHARACTER.test(value) || ADDRESS_FORBIDDEN_SEQUENCE.test(value) ? fieldError('error') : null;
}
