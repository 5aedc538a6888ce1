import { describe, expect, it } from 'vitest';
import { formatDate, formatNumber, toLatinDigits } from '../../../schemas/locales/intl-format';

const BIRTHDAY = new Date(Date.UTC(1990, 3, 25));

// SPEC §1 date display in many languages; SPEC §5 date-of-birth parts read back as digits.
describe('formatDate', () => {
  it('follows the locale', () => {
    expect(formatDate(BIRTHDAY, 'en_us')).toBe('April 25, 1990');
    expect(formatDate(BIRTHDAY, 'pt_br')).toBe('25 de abril de 1990');
    expect(formatDate(BIRTHDAY, 'zh_hk')).toBe('1990年4月25日');
  });

  it('shows a locale its own calendar when only displaying, in the Latin digits of the page', () => {
    expect(formatDate(BIRTHDAY, 'fa_ir', { year: 'numeric', timeZone: 'UTC' })).toBe('1369');
    expect(formatDate(BIRTHDAY, 'ar_qa')).toBe('25 أبريل 1990');
  });

  it('forces the Gregorian calendar and Latin digits for a form', () => {
    const numeric = { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' } as const;
    expect(formatDate(BIRTHDAY, 'fa_ir', numeric, { forForm: true })).toMatch(/1990/);
    expect(formatDate(BIRTHDAY, 'ar_sa', numeric, { forForm: true })).toMatch(/^[\d/\u200f\u061c -]+$/);
    expect(formatDate(BIRTHDAY, 'ar_sa', numeric, { forForm: true })).toContain('1990');
  });
});

describe('formatNumber', () => {
  it('groups as the locale does, in the Latin digits of the page', () => {
    expect(formatNumber(1234.5, 'de_de')).toBe('1.234,5');
    expect(formatNumber(1234.5, 'en_us')).toBe('1,234.5');
    expect(formatNumber(1234.5, 'ar_qa')).toBe('1,234.5');
    expect(formatNumber(2000, 'fa_ir', { useGrouping: false })).toBe('2000');
  });
});

describe('toLatinDigits', () => {
  it.each([
    ['١٩٩٠', '1990'],
    ['۱۹۹۰', '1990'],
    ['१९९०', '1990'],
    ['１９９０', '1990'],
    ['12/٠٥', '12/05'],
    ['abc', 'abc'],
  ])('%s -> %s', (typed, latin) => {
    expect(toLatinDigits(typed)).toBe(latin);
  });
});
