import { describe, expect, it } from 'vitest';
import { validateAttributeChanges } from '../../../schemas/forms/validate-attributes';
import { validateFormData } from '../../../schemas/forms/validate-form';
import type { JsonSchema } from '../../../schemas/forms/json-schema';
import { hasHiddenFormatting, isStorableText, validateCharacters, validateField } from '../../../schemas/validators';
import { ALLOWED_UNUSUAL_TEXT, CONTROL_CHARACTERS, GOLDEN_TABLES, GOLDEN_TODAY, HIDDEN_FORMATTING_CHARACTERS } from './golden-tables';

// docs/decisions/0005-validators.md "Characters": one key, `invalidCharacter`, for every field.
const invalidCharacter = { key: 'invalidCharacter' };

describe('validateCharacters', () => {
  it.each(CONTROL_CHARACTERS)('refuses a %s anywhere in the value, and the text is not storable', (_name, character) => {
    for (const value of [character, `A${character}B`, `${character}Ana`, `Ana${character}`]) {
      expect(validateCharacters(value)).toEqual(invalidCharacter);
      expect(isStorableText(value)).toBe(false);
    }
  });

  it.each(HIDDEN_FORMATTING_CHARACTERS)('refuses a %s (hidden formatting), though the text could be stored', (_name, character) => {
    expect(validateCharacters(`A${character}B`)).toEqual(invalidCharacter);
    expect(hasHiddenFormatting(`A${character}B`)).toBe(true);
    expect(isStorableText(`A${character}B`)).toBe(true);
  });

  it.each(ALLOWED_UNUSUAL_TEXT)('accepts a %s', (_name, text) => {
    expect(validateCharacters(text)).toBeNull();
    expect(validateField(text, { rule: 'text' })).toBeNull();
  });

  it('tells a surrogate pair from lone halves wherever they sit', () => {
    expect(isStorableText('💳💳')).toBe(true);
    expect(isStorableText('\uD83D\uD83D\uDCB3')).toBe(false); // a high surrogate followed by a pair
    expect(isStorableText('\uD83D\uDCB3\uDCB3')).toBe(false); // a pair followed by a low surrogate
    expect(isStorableText('💳\uD83D')).toBe(false); // a high surrogate at the end
  });

  it('takes every pair at the ends of the surrogate ranges as one character', () => {
    expect(isStorableText('\uD800\uDC00')).toBe(true); // U+10000, the first character outside the BMP
    expect(isStorableText('\uD800\uDFFF')).toBe(true);
    expect(isStorableText('\uDBFF\uDC00')).toBe(true);
    expect(isStorableText('\uDBFF\uDFFF')).toBe(true); // U+10FFFF, the last
    expect(isStorableText('\uD7FF\uE000')).toBe(true); // the characters either side of the surrogates
    expect(isStorableText('\uDBFFA')).toBe(false);
    expect(isStorableText('\uDC00\uD800')).toBe(false); // the halves in the wrong order
    expect(isStorableText('\uDC00\uDC00')).toBe(false); // two low halves are no pair
    expect(isStorableText('\uD800\uE000')).toBe(false); // a high half before a character past the low range
  });
});

describe('every rule answers invalidCharacter before its own checks', () => {
  const valid = GOLDEN_TABLES.flatMap((table) =>
    table.rows
      .filter(([, , expected]) => expected === null)
      .slice(0, 1)
      .map(([value, options]) => [table.title, table.rule, value, options] as const),
  );

  it.each(valid)('%s: a valid value with a NUL, a lone surrogate or a bidi override inside', (_title, rule, value, options) => {
    expect(validateField(value, { rule, options }, { today: GOLDEN_TODAY })).toBeNull();
    for (const character of ['\u0000', '\uD800', '\u202E']) {
      const middle = Math.floor(value.length / 2);
      expect(
        validateField(
          `${value.slice(0, middle)}${character}${value.slice(middle)}`,
          { rule, options, required: true },
          { today: GOLDEN_TODAY, matchValue: value },
        ),
      ).toEqual(invalidCharacter);
    }
  });

  it('a value of only a control character is not empty: it is refused, not "required"', () => {
    expect(validateField('\u0000', { rule: 'name', required: true })).toEqual(invalidCharacter);
    expect(validateField('\u0000', { rule: 'name', required: false })).toEqual(invalidCharacter);
  });
});

describe('validateFormData: fields without a rule', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      password: { type: 'string', maxLength: 128 },
      title: { type: 'string', enum: ['mr', 'ms'] },
      otp: { type: 'string', pattern: '^[0-9]{6}$' },
      offers: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } },
    },
    required: ['password'],
  };

  it('refuse a control character or lone surrogate by name with invalidCharacter', () => {
    expect(validateFormData(schema, { password: 'Rewards#2025\u0000', title: 'mr\u0000', otp: '12345\u0000' })).toEqual({
      password: invalidCharacter,
      title: invalidCharacter,
      otp: invalidCharacter,
    });
    expect(validateFormData(schema, { password: 'Rewards#2025\uDC00' })).toEqual({ password: invalidCharacter });
  });

  it('leave hidden formatting in a current password alone (a password set before this rule must still sign in)', () => {
    expect(validateFormData(schema, { password: 'Rewards\u200B#2025' })).toEqual({});
  });
});

describe('validateAttributeChanges (the v2 save of the profile)', () => {
  it('names the attribute that holds a control character', () => {
    const schema: JsonSchema = { type: 'object', properties: { first_name: { type: 'string', maxLength: 100, 'x-rule': { name: 'name' } } } };
    const errors = validateAttributeChanges({ first_name: 'A\u0000B' }, { schema, marketingOptIns: [], offerCategoryIds: null });
    expect(errors).toEqual({ first_name: invalidCharacter });
  });
});
