import { describe, expect, it } from 'vitest';
import { formatCardNumber, isLuhnValid, maskCardNumber, validateCardNumber } from '../../../schemas/validators';

describe('§5 card number: auto-formatted as typed (formatCardNumber)', () => {
  it.each([
    ['', ''],
    ['4', '4'],
    ['4111', '4111'],
    ['41111', '4111 1'],
    ['4111 1111', '4111 1111'],
    ['4111-1111-1111-1111', '4111 1111 1111 1111'],
    ['41111111111111119999', '4111 1111 1111 1111'],
    ['ab4c1', '41'],
  ])('%j shows as %j', (typed, shown) => {
    expect(formatCardNumber(typed)).toBe(shown);
  });
});

describe('§5 card number: masking', () => {
  it.each([
    ['1234', 'XXXX XXXX XXXX 1234'], // a last four: three masked groups and the four digits
    ['4111111111111111', 'XXXXXXXXXXXX1111'],
    ['4111 1111 1111 1111', 'XXXX XXXX XXXX 1111'],
    ['12345', 'X2345'],
    ['4111 1', 'X111 1'],
    ['123', '123'],
  ])('%j is shown as %j', (value, masked) => {
    expect(maskCardNumber(value)).toBe(masked);
  });
});

describe('Luhn check', () => {
  it.each([
    ['4111111111111111', true],
    ['79927398713', true],
    ['0', true],
    ['4111111111111112', false],
    ['79927398710', false],
    ['', false],
    ['4111 1111 1111 1111', false],
  ])('%j is Luhn-valid: %s', (digits, valid) => {
    expect(isLuhnValid(digits)).toBe(valid);
  });
});

describe('§5 card number: only digits and plain spaces', () => {
  it('refuses a number with a non-breaking space where a digit should be, though it reads as 0', () => {
    expect(validateCardNumber('4000 0000 0000 0002')).toBeNull();
    expect(validateCardNumber('400\u00a0000000000002')).toEqual({ key: 'invalid' });
    expect(isLuhnValid('400\u00a0000000000002')).toBe(false);
    expect(isLuhnValid('4000000000000002\u00a0')).toBe(false);
  });
});
