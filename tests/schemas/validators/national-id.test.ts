import { describe, expect, it } from 'vitest';
import {
  CPF_MASK,
  isValidCpfDigits,
  isValidSsnDigits,
  nationalIdMask,
  SSN_MASK,
  validateCpf,
  validateNationalId,
  validateSsn,
} from '../../../schemas/validators';

describe('§5 national id: masks', () => {
  it('formats cpf and ssn with their own masks, others with the site mask', () => {
    expect(nationalIdMask('cpf', '0000')).toBe(CPF_MASK);
    expect(nationalIdMask('ssn', undefined)).toBe(SSN_MASK);
    expect(nationalIdMask('other', '00.000.000')).toBe('00.000.000');
    expect(nationalIdMask(undefined, undefined)).toBeUndefined();
    expect([CPF_MASK, SSN_MASK]).toEqual(['000.000.000-00', '000-00-0000']);
  });
});

describe('§5 national id: cpf and ssn on their own', () => {
  it('rejects every repeated-digit cpf although 000.000.000-00 style values pass the check digits', () => {
    for (let digit = 0; digit <= 9; digit++) expect(isValidCpfDigits(String(digit).repeat(11))).toBe(false);
  });

  it('gives the same answers as validateNationalId with the type', () => {
    for (const value of ['529.982.247-25', '529.982.247-24']) {
      expect(validateCpf(value)).toEqual(validateNationalId(value, { type: 'cpf' }));
    }
    for (const value of ['536-22-4189', '666-22-4189']) {
      expect(validateSsn(value)).toEqual(validateNationalId(value, { type: 'ssn' }));
    }
  });

  it('checks ssn digits only', () => {
    expect(isValidSsnDigits('536224189')).toBe(true);
    expect(isValidSsnDigits('536-22-4189')).toBe(false);
    expect(isValidSsnDigits('5362241890')).toBe(false);
    expect(isValidSsnDigits('x536224189')).toBe(false);
  });

  it('checks exactly eleven cpf digits', () => {
    expect(isValidCpfDigits('52998224725')).toBe(true);
    expect(isValidCpfDigits('529982247250')).toBe(false);
    expect(isValidCpfDigits('152998224725')).toBe(false);
    expect(isValidCpfDigits('5299822472')).toBe(false);
  });
});

describe('§5 national id: each cpf check digit counts', () => {
  it('refuses a cpf whose first check digit is wrong, and one whose second is', () => {
    expect(validateCpf('529.982.247-25')).toBeNull();
    // 529.982.247-33: the first check digit should be 2; the second (3) is right for that wrong first one.
    expect(validateCpf('529.982.247-33')).toEqual({ key: 'invalid' });
    expect(validateCpf('529.982.247-26')).toEqual({ key: 'invalid' });
  });
});
