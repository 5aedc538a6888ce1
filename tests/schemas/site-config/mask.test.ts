import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMask, maskSlotCount, parseMask, unmask } from '../../../schemas/site-config/mask';

// SPEC §5: phone, national id and postal code are auto-formatted by a mask and complete when every
// slot is filled. Grammar from docs/decisions/0001-site-fixture-format.md.
const BRAZIL_PHONE = '(00) 00000-0000';
const CPF = '000.000.000-00';
const CANADA_POSTAL = 'A0A 0A0';

describe('parseMask', () => {
  it('reads digit, letter, letter-or-digit slots and the literals', () => {
    expect(parseMask('(0A*) -./+:')).toEqual({
      ok: true,
      tokens: [
        { kind: 'literal', char: '(' },
        { kind: 'digit' },
        { kind: 'letter' },
        { kind: 'alphanumeric' },
        { kind: 'literal', char: ')' },
        { kind: 'literal', char: ' ' },
        { kind: 'literal', char: '-' },
        { kind: 'literal', char: '.' },
        { kind: 'literal', char: '/' },
        { kind: 'literal', char: '+' },
        { kind: 'literal', char: ':' },
      ],
    });
  });

  it.each([
    ['000#0000', 3, '#'],
    ['9999', 0, '9'],
    ['(00) 0000_0000', 9, '_'],
    ['a0a', 0, 'a'],
  ])('reports the first unreadable character of %j', (mask, position, character) => {
    expect(parseMask(mask)).toEqual({ ok: false, position, character });
  });
});

describe('applyMask', () => {
  it.each([
    [BRAZIL_PHONE, '11987654321', '(11) 98765-4321'],
    [BRAZIL_PHONE, '1', '(1'],
    [BRAZIL_PHONE, '11', '(11'],
    [BRAZIL_PHONE, '119', '(11) 9'],
    [BRAZIL_PHONE, '11 9876x5-4', '(11) 98765-4'],
    [BRAZIL_PHONE, '119876543210000', '(11) 98765-4321'],
    [BRAZIL_PHONE, '', ''],
    [CPF, '52998224725', '529.982.247-25'],
    ['000-00-0000', '536224189', '536-22-4189'],
    ['0000 0000', '55123456', '5512 3456'],
    [CANADA_POSTAL, 'h3b1k9', 'h3b 1k9'],
    [CANADA_POSTAL, '3hb1k9', 'h1k 9'],
  ])('formats into %j: %j -> %j', (mask, typed, formatted) => {
    expect(applyMask(mask, typed)).toBe(formatted);
  });

  it('keeps a literal the user typed and moves past it', () => {
    expect(applyMask(BRAZIL_PHONE, '(')).toBe('(');
    expect(applyMask(BRAZIL_PHONE, '(11)')).toBe('(11)');
    expect(applyMask(CPF, '529.')).toBe('529.');
  });

  it('is idempotent: formatting a formatted value changes nothing', () => {
    fc.assert(
      fc.property(fc.constantFrom(BRAZIL_PHONE, CPF, CANADA_POSTAL, '(000) 000-0000', '**-**'), fc.string(), (mask, typed) => {
        const once = applyMask(mask, typed);
        expect(applyMask(mask, once)).toBe(once);
      }),
    );
  });

  it('never throws, even on a mask the grammar rejects (unknown characters act as literals)', () => {
    expect(applyMask('00#00', '1234')).toBe('12#34');
  });
});

describe('unmask', () => {
  it.each([
    [BRAZIL_PHONE, '(11) 98765-4321', '11987654321'],
    [BRAZIL_PHONE, '(11) 98', '1198'],
    [CPF, '529.982.247-25', '52998224725'],
    [CANADA_POSTAL, 'h3b 1k9', 'h3b1k9'],
    ['0000 0000', '5512 3456', '55123456'],
  ])('takes the slot characters of %j out of %j', (mask, formatted, raw) => {
    expect(unmask(mask, formatted)).toBe(raw);
  });

  it('gives back the typed digits, up to the number of slots', () => {
    fc.assert(
      fc.property(fc.constantFrom(BRAZIL_PHONE, CPF, '000-00-0000'), fc.stringMatching(/^[0-9]{0,20}$/), (mask, digits) => {
        expect(unmask(mask, applyMask(mask, digits))).toBe(digits.slice(0, maskSlotCount(mask)));
      }),
    );
  });
});

describe('maskSlotCount', () => {
  it.each([
    [BRAZIL_PHONE, 11],
    [CPF, 11],
    ['000-00-0000', 9],
    ['0000 0000', 8],
    [CANADA_POSTAL, 6],
    ['00000-000', 8],
    ['', 0],
  ])('%j has %i slots', (mask, slots) => {
    expect(maskSlotCount(mask)).toBe(slots);
  });
});
