import { describe, expect, it } from 'vitest';
import { lookupBinRange } from '../../schemas/cards/bin-ranges';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import type { JsonSchema } from '../../schemas/forms/json-schema';
import { siteLocalesOf } from '../../schemas/site-config/site-locales';
import { validateField, type RuleName } from '../../schemas/validators';
import { textValueFor } from '../e2e/support/site-journey/field-values';
import { generatedFieldValue } from '../../schemas/forms/generated-values';
import { eligibleBin } from '../e2e/support/site-journey/test-cards';
import binRanges from '../../fixtures/bin-ranges.json';
import { listSiteFixtures } from './site-fixtures';

const GENERATED_RULES: ReadonlySet<string> = new Set<RuleName>(['phone', 'nationalId', 'postalCode', 'bin']);

/** Every field of a form the journey types a generated value into, address parts included. */
function generatedFields(schema: JsonSchema, prefix = ''): Array<[string, JsonSchema]> {
  return Object.entries(schema.properties ?? {}).flatMap(([key, field]): Array<[string, JsonSchema]> => {
    if (field.type === 'object') return generatedFields(field, `${prefix}${key}.`);
    return GENERATED_RULES.has(field['x-rule']?.name ?? '') ? [[`${prefix}${key}`, field]] : [];
  });
}

const accepts = (field: JsonSchema, value: string): boolean =>
  validateField(value, { rule: field['x-rule']!.name, options: field['x-rule']!.options ?? {}, required: true }) === null;

const fieldOf = (rule: RuleName, options: Record<string, string | boolean | null>): JsonSchema => ({
  type: 'string',
  maxLength: 32,
  'x-rule': { name: rule, options },
});

describe('journey test values made from each field’s own rule (tests/e2e/support/site-journey)', () => {
  const cases = listSiteFixtures().flatMap((site) =>
    siteLocalesOf(site).flatMap((locale) =>
      (['registration', 'edit-profile'] as const).flatMap((form) =>
        generatedFields(buildFormSchema(site, locale, form).schema).map(([key, field]) => ({ siteId: site.siteId, locale, form, key, field })),
      ),
    ),
  );

  it('finds generated fields on the bundled sites (the table below is not empty)', () => {
    expect(cases.map((entry) => entry.key)).toEqual(expect.arrayContaining(['phone', 'nationalId', 'address.zipcode', 'ninedigitbin', 'bin']));
  });

  it.each(cases.map((entry) => [`${entry.siteId} ${entry.locale} ${entry.form} ${entry.key}`, entry] as const))(
    '%s: the value shown passes the field’s validator',
    (_name, entry) => {
      const key = entry.key.split('.').pop()!;
      const value = textValueFor(key, entry.field, entry.siteId, 'a@example.com', { first: 'Alex', last: 'Morgan' });
      expect(value).not.toBeNull();
      expect(accepts(entry.field, value!.shown)).toBe(true);
      const mask = entry.field['x-rule']?.options?.mask;
      // A masked widget is typed the slot characters only; it writes the literals itself.
      if (typeof mask === 'string' && mask !== '') expect(value!.typed).toMatch(/^[0-9A-Za-z]+$/);
    },
  );

  it.each([
    ['a Portuguese mobile, regexp only', fieldOf('phone', { mask: null, regexp: '^9[1236] ?\\d{3} ?\\d{4}$', locale: 'en_us' })],
    ['the same rule under a mask', fieldOf('phone', { mask: '000 000 000', regexp: '^9[1236] ?\\d{3} ?\\d{4}$', locale: 'en_us' })],
    ['a pt_br mobile under the locale mask, no regexp', fieldOf('phone', { mask: '(00) 00000-0000', regexp: null, locale: 'pt_br' })],
    [
      'a Canadian postal code: letters in the mask, an upper-case regexp',
      fieldOf('postalCode', { mask: 'A0A 0A0', regexp: '^[ABCEGHJ-NPRSTVXY][0-9][ABCEGHJ-NPRSTV-Z] ?[0-9][ABCEGHJ-NPRSTV-Z][0-9]$', uppercase: true }),
    ],
    ['a letters-in-mask postal code with no regexp', fieldOf('postalCode', { mask: 'A0A 0A0', regexp: null })],
    ['a UK postcode, regexp only', fieldOf('postalCode', { mask: null, regexp: '^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$' })],
    ['a regexp-only national id with letters', fieldOf('nationalId', { nationalIdType: 'other', mask: null, regexp: '^[0-9]{8} ?[0-9][A-Z]{2}[0-9]$' })],
    [
      'a national id with an alphanumeric mask',
      fieldOf('nationalId', { nationalIdType: 'other', mask: '**-000000', regexp: '^[A-Z]{2}-?[0-9]{6}$', uppercase: true }),
    ],
    ['a cpf (check digits)', fieldOf('nationalId', { nationalIdType: 'cpf', mask: '000.000.000-00', regexp: null })],
    ['an ssn (area, group and serial rules)', fieldOf('nationalId', { nationalIdType: 'ssn', mask: '000-00-0000', regexp: null })],
  ])('%s: yields a value its validator accepts, the same on every run', (_name, field) => {
    const value = generatedFieldValue('field', field);
    expect(accepts(field, value.shown)).toBe(true);
    expect(generatedFieldValue('field', field)).toEqual(value);
  });

  it('the cpf and ssn values are not one fixed number: another field draws another valid one', () => {
    const cpf = fieldOf('nationalId', { nationalIdType: 'cpf', mask: '000.000.000-00', regexp: null });
    const values = ['a', 'b', 'c'].map((key) => generatedFieldValue(key, cpf).typed);
    expect(new Set(values).size).toBe(3);
    for (const typed of values) expect(accepts(cpf, typed)).toBe(true);
  });

  it('fails naming the field and its rule when no value can pass (a mask of digits, a regexp of letters)', () => {
    const impossible = fieldOf('postalCode', { mask: '00000', regexp: '^[A-Z]{5}$' });
    expect(() => generatedFieldValue('zipcode', impossible)).toThrow(/no valid test value for zipcode: .*postalCode .*\^\[A-Z\]\{5\}\$/);
  });

  it.each([6, 8, 9])('a %s-digit bin is the prefix of an eligible, active range of fixtures/bin-ranges.json', (length) => {
    const bin = eligibleBin('firstbank', length);
    expect(bin).toMatch(new RegExp(`^4[0-9]{${length - 1}}$`));
    expect(lookupBinRange(binRanges, bin, 'firstbank').eligible).toBe(true);
  });
});
