import { localeToLanguageTag } from './locale-table';

/**
 * Dates and numbers through the platform's Intl (SPEC §1 "Date display in many languages"), by one rule:
 * one digit system per page. Whatever the site shows, a date, an amount, a count inside a text, is written in
 * Latin digits, the digits of the page's number-like fields (SPEC §5: phone, postal code, card digits, date
 * of birth are typed and read left to right in Latin digits; ADR 0013). So ar-QA shows "12 أبريل 1988" and
 * "30.50 ر.ق." beside "6612 3456", never "١٢ أبريل ١٩٨٨". The locale still chooses the words, their order,
 * the separators and, for display, the calendar (fa-IR a Persian year). A form field that must read back as
 * YYYY-MM-DD (SPEC §5 date of birth) asks for `forForm`, which forces the Gregorian calendar too (ar-SA
 * would otherwise show an Islamic year).
 */
export interface IntlOptions {
  forForm?: boolean;
}

const PAGE_DIGITS = { numberingSystem: 'latn' } as const;
const FORM_CALENDAR = { calendar: 'gregory' } as const;

/** Every date and time the site shows is written by this (the page's digits). */
export function dateTimeFormat(languageTag: string, options: Intl.DateTimeFormatOptions, intl: IntlOptions = {}): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(languageTag, { ...options, ...PAGE_DIGITS, ...(intl.forForm ? FORM_CALENDAR : {}) });
}

/** Every number and amount the site shows is written by this (the page's digits). */
export function numberFormat(languageTag: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return new Intl.NumberFormat(languageTag, { ...options, ...PAGE_DIGITS });
}

export function formatDate(
  date: Date,
  locale: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'long', timeZone: 'UTC' },
  intl: IntlOptions = {},
): string {
  return dateTimeFormat(localeToLanguageTag(locale), options, intl).format(date);
}

export function formatNumber(value: number, locale: string, options: Intl.NumberFormatOptions = {}): string {
  return numberFormat(localeToLanguageTag(locale), options).format(value);
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
