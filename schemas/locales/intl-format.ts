import { localeToLanguageTag } from './locale-table';

/**
 * Dates and numbers through the platform's Intl (SPEC §1 "Date display in many languages"). Display
 * follows the locale's own calendar and digits; a form field that must read back as YYYY-MM-DD
 * (SPEC §5 date of birth) or as card digits asks for `forForm`, which forces the Gregorian calendar and
 * Latin digits whatever the locale's default (fa_IR would otherwise show a Persian year in
 * Extended Arabic-Indic digits, ar_SA an Islamic one).
 */
export interface IntlOptions {
  forForm?: boolean;
}

const FORM_EXTENSIONS = { calendar: 'gregory', numberingSystem: 'latn' } as const;

function formatOptions<T extends object>(options: T, intl: IntlOptions): T {
  return intl.forForm ? { ...options, ...FORM_EXTENSIONS } : options;
}

export function formatDate(
  date: Date,
  locale: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'long', timeZone: 'UTC' },
  intl: IntlOptions = {},
): string {
  return new Intl.DateTimeFormat(localeToLanguageTag(locale), formatOptions(options, intl)).format(date);
}

export function formatNumber(value: number, locale: string, options: Intl.NumberFormatOptions = {}, intl: IntlOptions = {}): string {
  return new Intl.NumberFormat(localeToLanguageTag(locale), formatOptions(options, intl)).format(value);
}

/** Decimal digits of the scripts a visitor may type with (Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, full-width …): each block starts at its zero. */
const DIGIT_ZEROS: readonly number[] = [
  0x0660, 0x06f0, 0x07c0, 0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66, 0x0e50, 0x0ed0, 0x0f20, 0x1040, 0x17e0, 0x1810, 0xff10,
];

/**
 * Any decimal digit typed in another script as its Latin digit (٢٠٠٠ -> 2000), so a numeric form
 * field (date-of-birth parts, SPEC §5) accepts what an Arabic, Persian or Hindi keyboard types.
 * Everything else is left as it is.
 */
export function toLatinDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0) ?? 0;
    const zero = DIGIT_ZEROS.find((start) => code >= start && code <= start + 9);
    return zero === undefined ? digit : String(code - zero);
  });
}
