/** xx_yy (SPEC §2) to the BCP 47 tag a page's lang attribute and Intl want: en_us -> en-US. */
export function localeToLanguageTag(locale: string): string {
  const [language = 'en', region] = locale.split('_');
  return region ? `${language}-${region.toUpperCase()}` : language;
}
