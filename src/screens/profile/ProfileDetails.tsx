import { useMemo } from 'react';
import type { UserProfile } from '../../../schemas/entities/user-profile';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { phoneMaskOf, readSiteFormSettings } from '../../../schemas/forms/site-form-settings';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { textLookup, type TextLookup } from '../../../widgets/form-engine/form-texts';
import { Ltr } from '../../../widgets/text/Ltr';
import type { UserSiteAttributes } from '../../api/user-attribute-api';
import { useFormTexts } from '../../content/use-form-texts';
import { useText } from '../../content/use-text';
import { localeToLanguageTag } from '../../../schemas/locales/locale-table';
import { useSiteLocation } from '../../site/use-site-location';
import { initialAttributeValues } from './changed-attributes';
import { EDITED_ELSEWHERE } from './profile-forms';
import { countryName, formatCalendarDay, formatWithMask, maskNationalId } from './profile-format';

/** Shown elsewhere on the profile (e-mail in the summary) or never read back (the hidden locale). */
const NOT_LISTED: ReadonlySet<string> = new Set([...EDITED_ELSEWHERE, 'email', 'locale', 'email_optin']);

interface Row {
  key: string;
  label: string;
  value: string | null;
  /** Digits and mask literals read left to right on a right-to-left page too ("5512 3456", not "3456 5512"). */
  leftToRight?: boolean;
  /** A date in words and Latin digits (ADR 0013) sits in its own isolate, so its digits keep their place in an RTL line. */
  isolated?: boolean;
}

function labelKeyOf(uiSchema: Record<string, unknown> | undefined, fallback: string): string {
  const options = uiSchema?.['ui:options'] as { labelKey?: unknown } | undefined;
  return typeof options?.labelKey === 'string' ? options.labelKey : fallback;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * SPEC §3 attributes of the site's profile-view form (its fields and order come from the schema
 * engine, as edit-profile's do), each in its display format: dates in the locale's format, phone
 * and postal code in the site's masks, the national id masked to its last digits.
 */
function profileRows(site: SiteConfig, locale: string, attributes: UserSiteAttributes, profile: UserProfile | null, formText: TextLookup): Row[] {
  const { schema, uiSchema } = buildFormSchema(site, locale, 'profile-view');
  const settings = readSiteFormSettings(site);
  const values = initialAttributeValues(schema, attributes, profile);
  const languageTag = localeToLanguageTag(locale);
  const order = (uiSchema['ui:order'] as string[] | undefined) ?? [];
  const rows: Row[] = [];
  for (const key of order) {
    if (NOT_LISTED.has(key)) continue;
    const fieldUi = uiSchema[key] as Record<string, unknown> | undefined;
    const label = formText(labelKeyOf(fieldUi, `label.${key}`));
    const value = values[key];
    switch (key) {
      case 'dob':
        rows.push({ key, label, value: text(value) && formatCalendarDay(String(value), languageTag), isolated: true });
        break;
      case 'title':
      case 'gender':
      case 'business_type':
        rows.push({ key, label, value: text(value) && formText(`${key}.${String(value)}`) });
        break;
      case 'phone':
        rows.push({ key, label, value: text(value) && formatWithMask(String(value), phoneMaskOf(settings, locale)), leftToRight: true });
        break;
      case 'nationalId':
        rows.push({ key, label, value: text(value) && maskNationalId(String(value), settings.nationalIdMask), leftToRight: true });
        break;
      case 'country':
        rows.push({ key, label, value: text(value) && countryName(String(value), languageTag) });
        break;
      case 'address':
        rows.push({ key, label, value: addressText(value, fieldUi, settings.postalCodeMask) });
        break;
      case 'ninedigitbin':
      case 'bin':
        rows.push({ key, label, value: text(value), leftToRight: true });
        break;
      default:
        rows.push({ key, label, value: text(value) });
    }
  }
  return rows;
}

/** SPEC §3 Address as it is written on an envelope: the parts the site shows, one line per group. */
const ADDRESS_LINES: readonly (readonly string[])[] = [['street', 'number'], ['additionalInformation'], ['neighborhood'], ['city', 'state'], ['zipcode']];

function addressText(value: unknown, addressUi: Record<string, unknown> | undefined, postalCodeMask: string | null): string | null {
  const address = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const shown = new Set((addressUi?.['ui:order'] as string[] | undefined) ?? []);
  const partText = (part: string): string | null => {
    const partValue = shown.has(part) ? text(address[part]) : null;
    return partValue && part === 'zipcode' ? formatWithMask(partValue, postalCodeMask) : partValue;
  };
  const lines = ADDRESS_LINES.map((parts) =>
    parts
      .map(partText)
      .filter((part): part is string => part !== null)
      .join(', '),
  ).filter((line) => line !== '');
  return lines.length === 0 ? null : lines.join('\n');
}

export function ProfileDetails({ site, attributes, profile }: { site: SiteConfig; attributes: UserSiteAttributes; profile: UserProfile | null }) {
  const { locale } = useSiteLocation();
  const formTexts = useFormTexts();
  const texts = useText('profile');
  const rows = useMemo(
    () => profileRows(site, locale, attributes, profile, textLookup(formTexts, localeToLanguageTag(locale))),
    [site, locale, attributes, profile, formTexts],
  );
  return (
    <dl className="profile-details">
      {rows.map((row) => (
        <div key={row.key} className="profile-details__row" data-field={row.key}>
          <dt className="profile-details__label">{row.label}</dt>
          <dd className={row.value === null ? 'profile-details__value profile-details__value--empty' : 'profile-details__value'}>
            {row.value === null ? texts('notProvided') : row.leftToRight ? <Ltr>{row.value}</Ltr> : row.isolated ? <bdi>{row.value}</bdi> : row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
