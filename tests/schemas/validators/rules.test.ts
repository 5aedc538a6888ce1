import { describe, expect, it } from 'vitest';
import {
  compileSiteRegExp,
  CVV_DIGITS,
  DEFAULT_POSTAL_CODE_MASK,
  fieldError,
  isEmptyValue,
  isRuleName,
  meetsSiteRegExp,
  postalCodeMask,
  validateCvv,
  validateEmail,
  validateField,
  validatePhone,
  validateText,
} from '../../../schemas/validators';

// The edges of the smaller SPEC §5 rules and of validateField's option reading that the golden tables
// (whole values of real sites) do not reach: exact limits, values of the wrong type, the regexp cache.

describe('fieldError', () => {
  it('carries values only when the message has placeholders', () => {
    expect(fieldError('required')).toStrictEqual({ key: 'required' });
    expect(Object.keys(fieldError('required'))).toEqual(['key']);
    expect(fieldError('tooLong', { count: 5 })).toStrictEqual({ key: 'tooLong', values: { count: 5 } });
  });
});

describe('§3 capture_cvv: exactly three digits', () => {
  it.each([
    ['123', null],
    ['000', null],
    ['', { key: 'required' }],
    ['12', { key: 'invalid', values: { count: 3 } }],
    ['1234', { key: 'invalid', values: { count: 3 } }],
    ['12a', { key: 'invalid', values: { count: 3 } }],
    [' 123', { key: 'invalid', values: { count: 3 } }],
    ['123 ', { key: 'invalid', values: { count: 3 } }],
  ])('%j gives %o', (value, expected) => {
    expect(CVV_DIGITS).toBe(3);
    expect(validateCvv(value)).toStrictEqual(expected);
  });
});

describe('§5 email: the 254-character limit (RFC 5321)', () => {
  // 'a@' + three labels of 63 and one of `last`, each with its dot, + 'com': 2 + 192 + last + 1 + 3 characters.
  const addressOf = (last: number) => `a@${`${'b'.repeat(63)}.`.repeat(3)}${'c'.repeat(last)}.com`;

  it('accepts an address of exactly 254 characters and refuses one of 255', () => {
    expect(addressOf(56)).toHaveLength(254);
    expect(validateEmail(addressOf(56))).toBeNull();
    expect(addressOf(57)).toHaveLength(255);
    expect(validateEmail(addressOf(57))).toEqual({ key: 'error' });
  });
});

describe('§5 generic inputs: a free text is held to its max length', () => {
  it('refuses a free text over its limit with tooLong, before its regexp', () => {
    expect(validateText('a'.repeat(100))).toBeNull();
    expect(validateText('a'.repeat(101))).toEqual({ key: 'tooLong', values: { count: 100 } });
    expect(validateText('abcdef', { maxLength: 5, regexp: '^[0-9]+$' })).toEqual({ key: 'tooLong', values: { count: 5 } });
    expect(validateField('abcdef', { rule: 'text', options: { maxLength: 5 } })).toEqual({ key: 'tooLong', values: { count: 5 } });
    expect(validateField('abcde', { rule: 'text', options: { maxLength: 5 } })).toBeNull();
  });
});

describe('§5 generic inputs: what counts as empty', () => {
  it('takes nothing, blank text, an unticked box and an empty list as empty, and nothing else', () => {
    for (const empty of [undefined, null, false, '', '  ', []]) expect(isEmptyValue(empty)).toBe(true);
    for (const filled of ['x', ' x ', true, 0, ['x'], {}]) expect(isEmptyValue(filled)).toBe(false);
  });
});

describe('§5 phone: trimmed before it is checked', () => {
  it('accepts a valid number with spaces around it', () => {
    expect(validatePhone(' +1 212 555 0123 ')).toBeNull();
    expect(validatePhone('  (212) 555-0123', { mask: '(000) 000-0000' })).toBeNull();
  });
});

describe('§5 postal code: the mask it is formatted with', () => {
  it("is the site's mask, else the default only when the site sets no regexp either", () => {
    expect(postalCodeMask({ mask: '00000', regexp: '^[0-9]{5}$' })).toBe('00000');
    expect(postalCodeMask({ mask: 'A0A 0A0' })).toBe('A0A 0A0');
    expect(postalCodeMask({ regexp: '^[0-9]{5}$' })).toBeUndefined();
    expect(postalCodeMask({})).toBe(DEFAULT_POSTAL_CODE_MASK);
    expect(DEFAULT_POSTAL_CODE_MASK).toBe('00000-000');
  });
});

describe('site regexps: met as shown, bare or as sent (ADR 0005 "Masks and regexps")', () => {
  it('reads the bare characters through the mask when the caller gives none', () => {
    expect(meetsSiteRegExp(/^[0-9]{8}$/, '12.345.678', '00.000.000')).toBe(true);
    expect(meetsSiteRegExp(/^[0-9]{8}$/, '12.345.67', '00.000.000')).toBe(false);
    expect(meetsSiteRegExp(/^x-1$/, 'x-1', undefined)).toBe(true);
    expect(meetsSiteRegExp(/^x1$/, 'x-1', undefined)).toBe(false);
  });

  it('formats bare characters through the mask for a regexp written for the shown shape', () => {
    expect(meetsSiteRegExp(/^[0-9]{2}\.[0-9]{3}\.[0-9]{3}$/, '12345678', '00.000.000')).toBe(true);
    expect(meetsSiteRegExp(/^[0-9]{2}\.[0-9]{3}\.[0-9]{3}$/, '12345678', '00-000-000')).toBe(false);
  });
});

describe('site regexps: the compiled cache holds at most 256', () => {
  let fresh = 0;
  const compileFresh = () => compileSiteRegExp(`^cache-probe-${fresh++}$`);

  it('is emptied when a 257th string arrives, not before', () => {
    const probe = '^cache-probe-kept$';
    let kept = compileSiteRegExp(probe);
    // Fill until the cache is emptied (other tests may have left strings in it): then it holds one fresh string.
    let emptied = false;
    for (let added = 0; added < 600 && !emptied; added++) {
      compileFresh();
      emptied = compileSiteRegExp(probe) !== kept;
    }
    expect(emptied).toBe(true);
    // It now holds that fresh string and the probe: 254 more make 256, all kept.
    kept = compileSiteRegExp(probe);
    for (let added = 0; added < 254; added++) compileFresh();
    expect(compileSiteRegExp(probe)).toBe(kept);
    compileFresh();
    expect(compileSiteRegExp(probe)).not.toBe(kept);
    expect(compileSiteRegExp(probe)?.source).toBe(probe);
  });

  it('keeps a string compiled while others arrive', () => {
    const first = compileSiteRegExp('^kept-while-others-arrive$');
    compileSiteRegExp('^another-one$');
    expect(compileSiteRegExp('^kept-while-others-arrive$')).toBe(first);
  });
});

describe('validateField: rule names and options from outside the type system', () => {
  it('takes a rule name only as text', () => {
    const looksLikeName = { toString: () => 'name' };
    expect(isRuleName('name')).toBe(true);
    expect(isRuleName(looksLikeName)).toBe(false);
    expect(validateField('John', { rule: looksLikeName as never })).toEqual({ key: 'invalid' });
  });

  it('answers invalidCharacter before any rule', () => {
    expect(validateField('Jo\u0000hn', { rule: 'name' })).toEqual({ key: 'invalidCharacter' });
    expect(validateField('Jo\u202Ehn', { rule: 'text', required: true })).toEqual({ key: 'invalidCharacter' });
  });

  it('reads absent or null options and inputs as none', () => {
    expect(validateField('John', { rule: 'name', options: null as never })).toBeNull();
    expect(validateField('a'.repeat(101), { rule: 'name', options: null as never })).toEqual({ key: 'tooLong', values: { count: 100 } });
    expect(validateField('Passw0rd!', { rule: 'confirmPassword' }, null as never)).toEqual({ key: 'mustMatch' });
    expect(validateField('1990-05-17', { rule: 'dob' }, { today: null as never })).toEqual({ key: 'invalid' });
    expect(validateField('1990-05-17', { rule: 'dob' }, { today: '2025-06-15' as never })).toEqual({ key: 'invalid' });
  });

  const tooLong = (count: number) => ({ key: 'tooLong', values: { count } });

  it.each([
    // whole numbers from 0, as numbers or as up to six digits
    [0, 'a', tooLong(0)],
    ['0', 'a', tooLong(0)],
    ['9', 'a'.repeat(10), tooLong(9)],
    ['123456', 'a'.repeat(101), null],
    // anything else is dropped and the default 100 applies
    [-1, 'a', null],
    [1.5, 'ab', null],
    [2 ** 53, 'a'.repeat(101), tooLong(100)],
    ['1234567', 'a'.repeat(101), tooLong(100)],
    ['', 'a', null],
    ['-8', 'a', null],
    ['8 ', 'a'.repeat(9), null],
    [' 8', 'a'.repeat(9), null],
    [['5'], 'a'.repeat(6), null],
    [true, 'a', null],
  ])('a maxLength of %j: %j gives %o', (maxLength, value, expected) => {
    expect(validateField(value, { rule: 'text', options: { maxLength: maxLength as never } })).toEqual(expected);
  });

  it.each([
    [true, { key: 'invalid' }],
    ['true', { key: 'invalid' }],
    [false, null],
    ['false', null],
    [42, null],
    ['yes', null],
  ])('reads standalone %j as a flag (a standalone card number needs its spaces)', (standalone, expected) => {
    expect(validateField('4111111111111111', { rule: 'cardNumber', options: { standalone: standalone as never } })).toEqual(expected);
    expect(validateField('4111 1111 1111 1111', { rule: 'cardNumber', options: { standalone: standalone as never } })).toBeNull();
  });
});
