import { DEFAULT_LOCALE, LOCALE_PATTERN } from '../schemas/locales/locale-table';

// The locale rules are the schemas' (schemas/locales/locale-table.ts), so the app and the gateway read a locale
// the same way; this is the gateway's one way to them.
export { DEFAULT_LOCALE, LOCALE_PATTERN };

/**
 * A person's language (SPEC §4 "the user's site locale"): the first of `candidates` that is a locale, else en_us
 * (SPEC §9). Callers list them in the house's order: what this request says, the site's `locale` attribute, the
 * account's locale; one order for the mails and the profile's form rules.
 */
export function firstLocaleOf(...candidates: unknown[]): string {
  for (const candidate of candidates) if (typeof candidate === 'string' && LOCALE_PATTERN.test(candidate)) return candidate;
  return DEFAULT_LOCALE;
}
