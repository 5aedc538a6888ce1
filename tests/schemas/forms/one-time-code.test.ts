import { describe, expect, it } from 'vitest';
import { ONE_TIME_CODE, readOneTimeCode } from '../../../schemas/forms/one-time-code';

describe('a six-digit code as typed or pasted (ADR 0008)', () => {
  it.each([
    ['123456', '123456'],
    ['123 456', '123456'],
    [' 123456 ', '123456'],
    ['123\u00a0456', '123456'],
    ['123\u202f456', '123456'],
    ['123-456', '123456'],
    ['123\u2013456', '123456'],
    ['12.34.56', '123456'],
    ['١٢٣٤٥٦', '123456'],
    ['۱۲۳۴۵۶', '123456'],
    ['12a456', '12a456'],
    ['', ''],
  ])('%j reads as %j', (typed, read) => {
    expect(readOneTimeCode(typed)).toBe(read);
  });

  it.each([
    ['123456', true],
    ['12345', false],
    ['1234567', false],
    ['12345a', false],
    ['x123456', false],
    ['123456x', false],
  ])('%j is a code: %s', (code, valid) => {
    expect(ONE_TIME_CODE.test(code)).toBe(valid);
  });
});
