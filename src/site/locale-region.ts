/**
 * SPEC §3 "Locales are grouped into regions NA, LAC, AP, CEMEA, Europe", by the locale's country.
 * Used to choose custom offer categories (§7) and, later, the analytics tag.
 */
export type LocaleRegion = 'NA' | 'LAC' | 'AP' | 'CEMEA' | 'Europe';

const REGION_COUNTRIES: Readonly<Record<LocaleRegion, readonly string[]>> = {
  NA: ['us', 'ca'],
  LAC: ['ar', 'bo', 'br', 'cl', 'co', 'cr', 'do', 'ec', 'gt', 'hn', 'jm', 'mx', 'ni', 'pa', 'pe', 'pr', 'py', 'sv', 'tt', 'uy', 've'],
  AP: ['au', 'bd', 'cn', 'hk', 'id', 'in', 'jp', 'kh', 'kr', 'lk', 'mo', 'my', 'np', 'nz', 'ph', 'sg', 'th', 'tw', 'vn'],
  CEMEA: ['ae', 'bh', 'eg', 'ga', 'gh', 'jo', 'ke', 'kw', 'kz', 'lb', 'ma', 'ng', 'om', 'pk', 'qa', 'ru', 'sa', 'tz', 'ua', 'ug', 'za'],
  Europe: ['at', 'be', 'bg', 'ch', 'cy', 'cz', 'de', 'dk', 'ee', 'es', 'fi', 'fr', 'gb', 'gr', 'hr', 'hu', 'ie', 'is', 'it', 'lt', 'lu', 'lv', 'mt', 'nl', 'no', 'pl', 'pt', 'ro', 'se', 'si', 'sk', 'tr'],
};

const REGION_BY_COUNTRY = new Map(
  (Object.entries(REGION_COUNTRIES) as [LocaleRegion, readonly string[]][]).flatMap(([region, countries]) => countries.map((country) => [country, region] as const)),
);

/** The region of an xx_yy locale; NA, the default locale's, for a country the table does not know. */
export function localeRegion(locale: string): LocaleRegion {
  return REGION_BY_COUNTRY.get(locale.slice(3, 5)) ?? 'NA';
}
