import { localeToLanguageTag } from '../../schemas/locales/locale-table';

/**
 * The content key of a counted text for `count` in `locale`: `key` plus the CLDR plural category
 * `Intl.PluralRules` selects (`.one`, `.other`; Arabic also `.zero`, `.two`, `.few`, `.many`), so
 * "You have 1 attempt left" and "You have 2 attempts left" are each written in every language.
 */
export function pluralTextKey(key: string, count: number, locale: string): string {
  return `${key}.${new Intl.PluralRules(localeToLanguageTag(locale)).select(count)}`;
}
