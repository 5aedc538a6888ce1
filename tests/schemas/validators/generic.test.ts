import { describe, expect, it } from 'vitest';
import { checkRequired, compileSiteRegExp, DEFAULT_MAX_LENGTH, validateField, validateMaxLength, validateText } from '../../../schemas/validators';
import { GOLDEN_TODAY, REQUIRED_TABLE } from './golden-tables';

describe('§5 generic inputs: the required rule (checkRequired)', () => {
  it.each(REQUIRED_TABLE)('%j, required %s, gives %o', (value, required, expected) => {
    expect(checkRequired(value, required)).toEqual(expected);
  });
});

describe('§5 generic inputs: max length (default 100)', () => {
  it('accepts 100 characters and refuses 101 with { maxLength }', () => {
    expect(DEFAULT_MAX_LENGTH).toBe(100);
    expect(validateMaxLength('a'.repeat(100))).toBeNull();
    expect(validateMaxLength('a'.repeat(101))).toEqual({ key: 'tooLong', values: { count: 100 } });
  });

  it('counts characters, not UTF-16 units', () => {
    expect(validateMaxLength('😀'.repeat(100))).toBeNull();
  });

  it('applies to the rules through validateField, with a configured length', () => {
    expect(validateField('a'.repeat(101), { rule: 'name' })).toEqual({ key: 'tooLong', values: { count: 100 } });
    expect(validateField('Johnny', { rule: 'name', options: { maxLength: 5 } })).toEqual({ key: 'tooLong', values: { count: 5 } });
    expect(validateField('Rua das Flores', { rule: 'addressPart', options: { maxLength: 14 } })).toBeNull();
  });

  it('checks a free text against its regexp with the invalid key', () => {
    expect(validateText('ABC-123', { regexp: '^[A-Z]{3}-[0-9]{3}$' })).toBeNull();
    expect(validateText('abc-123', { regexp: '^[A-Z]{3}-[0-9]{3}$' })).toEqual({ key: 'invalid' });
    expect(validateField('anything', { rule: 'text' })).toBeNull();
  });
});

describe('validateField: the one entry point for browser and gateway (§5)', () => {
  it.each([[42], [true], [{ value: 'John' }], [['John']], [Symbol('x')], [() => 'John']])('answers invalid for a value that is not text: %s', (value) => {
    expect(validateField(value, { rule: 'name', required: true })).toEqual({ key: 'invalid' });
  });

  it('answers required for an empty required value and null for an empty optional one', () => {
    for (const empty of ['', '   ', undefined, null]) {
      expect(validateField(empty, { rule: 'email', required: true })).toEqual({ key: 'required' });
      expect(validateField(empty, { rule: 'email' })).toBeNull();
    }
  });

  it('treats a date of birth with no part filled as empty (§5 "All empty and optional is valid")', () => {
    expect(validateField('--', { rule: 'dob', required: true }, { today: { year: 2025, month: 1, day: 1 } })).toEqual({
      key: 'required',
    });
    expect(validateField('--', { rule: 'dob' }, { today: { year: 2025, month: 1, day: 1 } })).toBeNull();
  });

  it('refuses an unknown rule or a malformed field rather than accepting', () => {
    expect(validateField('x', { rule: 'nope' as never })).toEqual({ key: 'invalid' });
    expect(validateField('x', { rule: 'toString' as never })).toEqual({ key: 'invalid' });
    expect(validateField('x', null as never)).toEqual({ key: 'invalid' });
  });

  it('reads options of the wrong type as absent, and digit strings as numbers', () => {
    expect(validateField('41111111', { rule: 'bin', options: { binLength: '8' as never } })).toBeNull();
    expect(validateField('41111111', { rule: 'bin', options: { binLength: 'eight' as never } })).toEqual({
      key: 'invalid',
      values: { count: 9 },
    });
    expect(validateField('5512 3456', { rule: 'phone', options: { mask: 42 as never } })).toBeNull();
    expect(validateField('4111111111111111', { rule: 'cardNumber', options: { standalone: 'true' as never } })).toEqual({
      key: 'invalid',
    });
  });

  it('compares a confirmation with the matchValue the caller supplies (§5 mustMatch)', () => {
    const field = { rule: 'confirmPassword', options: { matchField: 'password' }, required: true } as const;
    expect(validateField('Passw0rd!', field, { matchValue: 'Passw0rd!' })).toBeNull();
    expect(validateField('Passw0rd?', field, { matchValue: 'Passw0rd!' })).toEqual({ key: 'mustMatch' });
    expect(validateField('Passw0rd!', field)).toEqual({ key: 'mustMatch' });
  });

  it('refuses a date of birth when the caller supplied no today (no hidden clock)', () => {
    expect(validateField('1990-05-17', { rule: 'dob' })).toEqual({ key: 'invalid' });
    expect(validateField('1990-05-17', { rule: 'dob' }, { today: new Date('2025-06-15T00:00:00Z') })).toBeNull();
  });
});

describe('site regexps: compiled once per string, a broken one counts as none', () => {
  it('returns the same compiled regexp for the same string', () => {
    const first = compileSiteRegExp('^[0-9]{5}$');
    expect(first).toBeInstanceOf(RegExp);
    expect(compileSiteRegExp('^[0-9]{5}$')).toBe(first);
  });

  it.each([['(['], ['a{2,1}'], [''], [undefined], [42]])('gives null for %j', (source) => {
    expect(compileSiteRegExp(source)).toBeNull();
  });
});

describe('§5 "All empty": "--" is an empty date of birth and nothing else', () => {
  it('stores no "--" in an optional field other than a date of birth', () => {
    expect(validateField('--', { rule: 'dob' }, { today: GOLDEN_TODAY })).toBeNull();
    expect(validateField('--', { rule: 'dob', required: true }, { today: GOLDEN_TODAY })).toEqual({ key: 'required' });
    for (const rule of ['phone', 'bin', 'cardNumber'] as const) {
      expect(validateField('--', { rule }), rule).not.toBeNull();
    }
  });
});
