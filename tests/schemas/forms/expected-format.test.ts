import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { digitCountOf, expectedFormatOf } from '../../../schemas/forms/expected-format';
import { normaliseFormData, upperCaseLetters } from '../../../schemas/forms/normalise-form-data';
import { validateFormData } from '../../../schemas/forms/validate-form';
import { readSiteFixture } from '../../support/site-fixtures';

// SPEC §5: a formatted field says what it expects (hint and error); upper-case where the site asks.

describe('expectedFormatOf', () => {
  it("prefers the author's example, then the mask, then a digits-only regexp's length, then the site's format", () => {
    expect(expectedFormatOf({ mask: '000', regexp: '^x$', example: '12345678-9' })).toEqual({
      hintKey: 'hint.example',
      errorKey: 'expected.example',
      values: { example: '12345678-9' },
    });
    expect(expectedFormatOf({ mask: '(00) 00000-0000', regexp: null, example: null })).toEqual({
      hintKey: 'hint.mask',
      errorKey: 'expected.mask',
      values: { mask: '(00) 00000-0000' },
    });
    expect(expectedFormatOf({ mask: null, regexp: '^[23][0-9]{10}$', example: null })).toEqual({
      hintKey: 'hint.digits',
      errorKey: 'expected.digits',
      values: { count: 11 },
    });
    expect(expectedFormatOf({ mask: null, regexp: '^[1-9][0-9]{5,9}$', example: null })).toEqual({
      hintKey: 'hint.digitRange',
      errorKey: 'expected.digitRange',
      values: { min: 6, max: 10 },
    });
    expect(expectedFormatOf({ mask: null, regexp: '^[A-Z]{1,2}[0-9]{6}\\([0-9A]\\)$', example: null })).toEqual({
      errorKey: 'expected.siteFormat',
      values: {},
    });
    expect(expectedFormatOf({ mask: null, regexp: null, example: null })).toBeNull();
  });

  it('keeps the generic error of a masked field whose rule checks more than the shape (cpf check digits)', () => {
    expect(expectedFormatOf({ mask: '000.000.000-00', regexp: null, example: null }, true)).toEqual({
      hintKey: 'hint.mask',
      values: { mask: '000.000.000-00' },
    });
  });
});

describe('digitCountOf', () => {
  it.each([
    ['^[0-9]{5}$', { min: 5, max: 5 }],
    ['^\\d{3}-?$', null],
    ['^[0-9]?[0-9]{4}$', { min: 4, max: 5 }],
    ['^[0-35-9][0-9]{2,3}$', { min: 3, max: 4 }],
    ['^[0-9]{5,}$', null],
    ['[0-9]{5}', null],
    ['^[A-Za-z][0-9]$', null],
    ['^$', null],
  ])('%s gives %j', (regexp, expected) => {
    expect(digitCountOf(regexp)).toEqual(expected);
  });
});

describe('the translator puts the expected format and the upper-case rule on real sites', () => {
  it('sabana (regexp-only national id): the example as hint and error', () => {
    const { uiSchema } = buildFormSchema(readSiteFixture('sabana'), 'es_co', 'registration');
    expect((uiSchema.nationalId as { 'ui:options': Record<string, unknown> })['ui:options'].expectedFormat).toEqual({
      hintKey: 'hint.example',
      errorKey: 'expected.example',
      values: { example: '1023456789' },
    });
  });

  it('bancosol (masked phone, pt_br mobile rule): the site example as hint and error, which the mask alone could not give', () => {
    const { uiSchema } = buildFormSchema(readSiteFixture('bancosol'), 'pt_br', 'registration');
    expect((uiSchema.phone as { 'ui:options': Record<string, unknown> })['ui:options'].expectedFormat).toEqual({
      hintKey: 'hint.example',
      errorKey: 'expected.example',
      values: { example: '(11) 98765-4321' },
    });
  });

  it('northbank (postal_code_uppercase): the rule and the widget both upper-case', () => {
    const { schema, uiSchema } = buildFormSchema(readSiteFixture('northbank'), 'en_us', 'registration');
    expect(schema.properties?.address?.properties?.zipcode?.['x-rule']?.options).toMatchObject({ uppercase: true });
    expect((uiSchema.address as Record<string, { 'ui:options': Record<string, unknown> }>).zipcode!['ui:options']).toMatchObject({ uppercase: true });
  });
});

describe('normaliseFormData (the gateway upper-cases as the widget does)', () => {
  const { schema } = buildFormSchema(readSiteFixture('northbank'), 'en_us', 'edit-profile');

  it('upper-cases only the fields whose rule asks, and only ASCII letters', () => {
    const data = { first_name: 'ana', address: { zipcode: 'k1a 0b1', city: 'ottawa' }, phone: '6135550123' };
    expect(normaliseFormData(schema, data)).toEqual({ first_name: 'ana', address: { zipcode: 'K1A 0B1', city: 'ottawa' }, phone: '6135550123' });
    expect(data.address.zipcode).toBe('k1a 0b1');
    expect(upperCaseLetters('k1a 0b1 ıé')).toBe('K1A 0B1 ıé');
  });

  it('leaves what is not text or not an object as it is', () => {
    expect(normaliseFormData(schema, null)).toBeNull();
    expect(normaliseFormData(schema, [1])).toEqual([1]);
    expect(normaliseFormData(schema, { address: { zipcode: 42 } })).toEqual({ address: { zipcode: 42 } });
  });
});

describe('validateFormData names every problem at once (SPEC §5)', () => {
  it('a bad phone does not hide the empty required fields of a firstbank registration', () => {
    const { schema } = buildFormSchema(readSiteFixture('firstbank'), 'en_us', 'registration');
    const errors = validateFormData(schema, { phone: '123' }, { today: new Date(Date.UTC(2026, 10, 21)) });
    expect(errors.phone).toEqual({ key: 'invalid' });
    for (const field of schema.required ?? []) {
      if (field !== 'phone') expect(errors[field]?.key, field).toBe('required');
    }
    expect(Object.keys(errors).length).toBeGreaterThanOrEqual(6);
  });
});
