import { dateTimeFormat, numberFormat } from '../../../schemas/locales/intl-format';
import { applyMask } from '../../../schemas/site-config/mask';

/**
 * How the profile screens show stored values (SPEC §3 "display format"): dates and amounts in the
 * page locale, in the page's digits (schemas/locales/intl-format.ts), phone and postal code in the site's masks, the national id masked.
 * Pure, so every format is tested without a browser.
 */

const YMD = /^(\d{4})-(\d{2})-(\d{2})/;

/** A YYYY-MM-DD day (SPEC §3: dob keeps its first 10 characters) in the locale's date format; '' when it is no date. */
export function formatCalendarDay(value: string, languageTag: string, dateStyle: 'long' | 'medium' = 'long'): string {
  const match = YMD.exec(value.slice(0, 10));
  if (!match) return '';
  const [, year, month, day] = match;
  // UTC on both sides: the day shown is the day stored, whatever the browser's time zone.
  const instant = Date.UTC(Number(year), Number(month) - 1, Number(day));
  return dateTimeFormat(languageTag, { dateStyle, timeZone: 'UTC' }).format(instant);
}

/** A value the site formats with a mask (SPEC §5 phone, postal code), as the form shows it while typed. */
export function formatWithMask(value: string, mask: string | null): string {
  return mask === null ? value : applyMask(mask, value) || value;
}

const MASKED = '•';
const SHOWN_DIGITS = 4;

/**
 * A national id for reading back: only its last four characters show, the rest are dots, in the
 * site's mask when it has one ("•••-••-4189").
 */
export function maskNationalId(value: string, mask: string | null): string {
  const formatted = formatWithMask(value, mask);
  const characters = [...formatted];
  let kept = 0;
  for (let index = characters.length - 1; index >= 0; index--) {
    if (!/[0-9A-Za-z]/.test(characters[index] ?? '')) continue;
    if (kept < SHOWN_DIGITS) kept++;
    else characters[index] = MASKED;
  }
  return characters.join('');
}

/** The number of minor units in a major one for an ISO 4217 currency (2 for USD, 0 for JPY), as Intl knows it. */
function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** An amount in minor units as money in the page locale (ADR 0010 amountMinor + currency). */
export function formatMoney(amountMinor: number, currency: string, languageTag: string): string {
  return numberFormat(languageTag, { style: 'currency', currency }).format(amountMinor / 10 ** minorDigits(currency));
}

/** A country code (ISO 3166 alpha-2) by its name in the page language. */
export function countryName(code: string, languageTag: string): string {
  try {
    return new Intl.DisplayNames([languageTag], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
