/** xx_yy (SPEC §2) to the BCP 47 tag a page's lang attribute and Intl want: en_us -> en-US. */
export function localeToLanguageTag(locale: string): string {
  const [language = 'en', region] = locale.split('_');
  return region ? `${language}-${region.toUpperCase()}` : language;
}

/** Languages written right to left (Arabic, Hebrew, Persian, Urdu, Pashto, Sindhi, Uyghur, Yiddish, Dhivehi, Kurdish Sorani). */
const RIGHT_TO_LEFT_LANGUAGES: ReadonlySet<string> = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb']);

/** The page direction for a locale (SPEC §2 "Page language follows the locale"): rtl for right-to-left scripts. */
export function localeDirection(locale: string): 'rtl' | 'ltr' {
  return RIGHT_TO_LEFT_LANGUAGES.has(locale.split('_')[0] ?? '') ? 'rtl' : 'ltr';
}
