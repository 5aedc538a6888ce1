import type { WidgetProps } from '@rjsf/utils';
import { siteFormContext } from '../form-engine/form-context';
import { COUNTRY_CODES } from './country-codes';
import { NativeSelect, type SelectOption } from './SelectWidget';

const countriesByLanguage = new Map<string, readonly SelectOption[]>();

/** Every country named in `language` by the browser's own data (Intl.DisplayNames), sorted for that language. */
function countryOptions(language: string): readonly SelectOption[] {
  const cached = countriesByLanguage.get(language);
  if (cached) return cached;
  const names = new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator([language, 'en']);
  const options = COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) => collator.compare(a.label, b.label));
  countriesByLanguage.set(language, options);
  return options;
}

/** SPEC §3 country: an ISO 3166 alpha-2 code, picked by its name in the page language. */
export function CountryWidget(props: WidgetProps) {
  return <NativeSelect widget={props} choices={countryOptions(siteFormContext(props.registry).language)} />;
}
