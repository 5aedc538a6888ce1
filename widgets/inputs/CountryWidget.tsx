import type { WidgetProps } from '@rjsf/utils';
import { siteFormContext } from '../form-engine/form-context';
import { COUNTRY_CODES } from './country-codes';
import { NativeSelect, type SelectOption } from './SelectWidget';

const countriesByLanguage = new Map<string, readonly SelectOption[]>();

/** The country of the page's locale (SPEC §2 xx_yy: `pt-BR` gives BR), when the tag names one. */
function pageCountry(language: string): string | undefined {
  try {
    return new Intl.Locale(language).region;
  } catch {
    return undefined;
  }
}

/**
 * Every country named in `language` by the browser's own data (Intl.DisplayNames), sorted for that language, with
 * the site's own country (its locale's) first: most of its card holders live there, and need not scroll for it.
 */
function countryOptions(language: string): readonly SelectOption[] {
  const cached = countriesByLanguage.get(language);
  if (cached) return cached;
  const names = new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator([language, 'en']);
  const sorted = COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) => collator.compare(a.label, b.label));
  const home = pageCountry(language);
  const options = [...sorted.filter((option) => option.value === home), ...sorted.filter((option) => option.value !== home)];
  countriesByLanguage.set(language, options);
  return options;
}

/** SPEC §3 country: an ISO 3166 alpha-2 code, picked by its name in the page language. */
export function CountryWidget(props: WidgetProps) {
  return <NativeSelect widget={props} choices={countryOptions(siteFormContext(props.registry).language)} />;
}
