/**
 * SPEC §5 "Date of birth: parts mm, dd, yyyy ordered by date_format (default YYYY-MM-DD). Empty
 * part: IncompleteFieldError; unparsable: incompleteFormateError; age below dob_min_age:
 * invalidAgeError; year 1899 or earlier: maxAgeError. All empty and optional is valid; mandatory
 * is required." SPEC §9: earliest valid birth year 1900, date format YYYY-MM-DD.
 *
 * The value is always stored as `YYYY-MM-DD`, whatever order the parts are shown in; a part the
 * user has not filled yet is empty ("1990--05": month missing). Nothing here reads a clock: the
 * caller passes `today`.
 */
import { fieldError, type FieldError } from './field-error';

export type DobPart = 'yyyy' | 'mm' | 'dd';
export type DobParts = Record<DobPart, string>;

/** SPEC §5, §9 default `date_format`. */
export const DEFAULT_DATE_FORMAT = 'YYYY-MM-DD';
/** SPEC §9: earliest valid birth year. */
export const EARLIEST_BIRTH_YEAR = 1900;
/** SPEC §5, §9: the site table's default `dob_min_age`. */
export const DEFAULT_DOB_MIN_AGE = 16;

/** A calendar day; `month` is 1–12. */
export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

export interface DobOptions {
  /** `dob_min_age`; the site-table default 16 when absent. */
  minAge?: number;
  /**
   * The day ages are computed on; a Date is read in UTC. Always passed (no hidden clock); when it
   * is `undefined` or unreadable a non-empty value is refused with `invalid`.
   */
  today: CalendarDay | Date | undefined;
}

/** The stored value of the parts; `''` when every part is empty, so "required" sees it as empty. */
export function joinDobParts(parts: DobParts): string {
  const { yyyy, mm, dd } = parts;
  return yyyy === '' && mm === '' && dd === '' ? '' : `${yyyy}-${mm}-${dd}`;
}

/** The parts of a stored value; a part that is missing is empty. */
export function splitDobParts(value: string): DobParts {
  // split always gives a first piece (the year part, perhaps empty); the month and day may be missing.
  const [yyyy, mm = '', dd = ''] = value.split('-') as [string, ...string[]];
  return { yyyy, mm, dd };
}

/**
 * SPEC §9 date format YYYY-MM-DD: a complete value whose month and day were typed with one digit
 * ("1980-1-1") zero-padded ("1980-01-01"), so the value stored, shown and compared is the canonical
 * one. A value that is not three digit parts of the right sizes stays as it is, for validateDob to
 * answer.
 */
export function canonicalDob(value: string): string {
  const match = /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})$/.exec(value);
  if (!match) return value;
  // Stryker disable next-line StringLiteral: a match holds every group, so these defaults (for the type) are never read
  const [, yyyy = '', mm = '', dd = ''] = match;
  return `${yyyy}-${mm.padStart(2, '0')}-${dd.padStart(2, '0')}`;
}

/** True when no part holds anything: `''` or `"--"`. */
export function isDobEmpty(value: string): boolean {
  return /^-{0,2}$/.test(value);
}

const DATE_FORMAT = /^(YYYY|MM|DD)([-/.])(YYYY|MM|DD)\2(YYYY|MM|DD)$/;

/**
 * The order the parts are shown in and the separator between them, read from `date_format`
 * ("MM-DD-YYYY" gives mm, dd, yyyy and "-"). A format that does not name each part once falls
 * back to the default.
 */
export function dobPartOrder(dateFormat: string = DEFAULT_DATE_FORMAT): { order: DobPart[]; separator: string } {
  const match = DATE_FORMAT.exec(dateFormat);
  if (match) {
    // Stryker disable next-line StringLiteral: a match holds every group, so these defaults (for the type) are never read
    const [, first = '', separator = '-', second = '', third = ''] = match;
    if (new Set([first, second, third]).size === 3) {
      return { order: [first, second, third].map((part) => part.toLowerCase() as DobPart), separator };
    }
  }
  return { order: ['yyyy', 'mm', 'dd'], separator: '-' };
}

/** `today` as a calendar day; `null` when it is not one (an invalid Date, a malformed object). */
function readToday(today: unknown): CalendarDay | null {
  if (today instanceof Date) {
    const day = { year: today.getUTCFullYear(), month: today.getUTCMonth() + 1, day: today.getUTCDate() };
    return Number.isNaN(day.year) ? null : day;
  }
  if (typeof today !== 'object' || today === null) return null;
  const { year, month, day } = today as Partial<Record<keyof CalendarDay, unknown>>;
  return Number.isInteger(year) && Number.isInteger(month) && Number.isInteger(day)
    ? { year: year as number, month: month as number, day: day as number }
    : null;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function compareDays(a: CalendarDay, b: CalendarDay): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/**
 * Whole years from `birth` to `today` by the calendar: the birthday must have been reached this
 * year. Someone born on 29 February turns a year older on 1 March in common years.
 */
export function ageOn(birth: CalendarDay, today: CalendarDay): number {
  const birthdayReached = compareDays({ ...birth, year: today.year }, today) <= 0;
  return today.year - birth.year - (birthdayReached ? 0 : 1);
}

/** A real calendar day from the stored parts (four-digit year, one- or two-digit month and day), else `null`. */
function parseBirthDay(parts: DobParts): CalendarDay | null {
  if (!/^[0-9]{4}$/.test(parts.yyyy) || !/^[0-9]{1,2}$/.test(parts.mm) || !/^[0-9]{1,2}$/.test(parts.dd)) return null;
  const day = { year: Number(parts.yyyy), month: Number(parts.mm), day: Number(parts.dd) };
  const real = day.month >= 1 && day.month <= 12 && day.day >= 1 && day.day <= daysInMonth(day.year, day.month);
  return real ? day : null;
}

/**
 * The rules in the order a user meets them: incomplete, then unreadable or impossible (Feb 30,
 * month 13) or in the future, then too old (≤ 1899), then too young (`{ age }` = the minimum).
 */
export function validateDob(value: string, options: DobOptions): FieldError | null {
  if (isDobEmpty(value)) return null;
  // Stryker disable next-line ArrayDeclaration: without a dash the count is 0 or, with a filler, 1: either is not 2
  if ((value.match(/-/g) ?? []).length !== 2) return fieldError('incompleteFormateError');
  const parts = splitDobParts(value);
  if (parts.yyyy === '' || parts.mm === '' || parts.dd === '') return fieldError('IncompleteFieldError');

  const birth = parseBirthDay(parts);
  const today = readToday(options.today);
  // Without a readable `today` neither the future nor the age can be checked: refuse, never guess.
  if (today === null) return fieldError('invalid');
  if (birth === null || compareDays(birth, today) > 0) return fieldError('incompleteFormateError');
  if (birth.year < EARLIEST_BIRTH_YEAR) return fieldError('maxAgeError');

  const minAge = options.minAge ?? DEFAULT_DOB_MIN_AGE;
  return ageOn(birth, today) < minAge ? fieldError('invalidAgeError', { count: minAge }) : null;
}
