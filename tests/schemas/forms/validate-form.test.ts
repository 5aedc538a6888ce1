import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { isFormValid, validateFormData } from '../../../schemas/forms/validate-form';
import type { JsonSchema } from '../../../schemas/forms/json-schema';
import { readSiteFixture } from '../../support/site-fixtures';

const today = { year: 2026, month: 11, day: 21 };

// A complete, valid registration for the US site (SPEC §5 rules with firstbank's settings).
const firstbankRegistration = {
  title: 'ms',
  first_name: 'Ana',
  last_name: 'Silva',
  email: ' ana@example.com ',
  password: 'Sunny-Day-42',
  confirm_password: 'Sunny-Day-42',
  dob: '1990-04-12',
  phone: '2125550123',
  nationalId: '123-45-6788',
  ninedigitbin: '411111111',
  marketing_opt_ins: { email: true, transactional: false },
  pp: true,
};

describe('validateFormData on generated schemas (SPEC §5, §8 error keys)', () => {
  const { schema } = buildFormSchema(readSiteFixture('firstbank'), 'en_us', 'registration');

  it('accepts a valid registration', () => {
    expect(validateFormData(schema, firstbankRegistration, { today })).toEqual({});
    expect(isFormValid(schema, firstbankRegistration, { today })).toBe(true);
  });

  it('names every broken field with its key, in screen order', () => {
    const errors = validateFormData(
      schema,
      {
        ...firstbankRegistration,
        first_name: 'Ana<script>',
        password: 'short',
        confirm_password: 'other',
        dob: '2015-01-01',
        ninedigitbin: '51111111',
        pp: false,
        email: undefined,
      },
      { today },
    );
    expect(Object.keys(errors)).toEqual(['first_name', 'email', 'password', 'confirm_password', 'dob', 'ninedigitbin', 'pp']);
    expect(errors.first_name?.key).toBe('error');
    expect(errors.email?.key).toBe('required');
    expect(errors.password).toEqual({ key: 'passwordRulesError', values: { count: 4 } }); // length, digit, uppercase, special
    expect(errors.confirm_password?.key).toBe('mustMatch');
    expect(errors.dob).toEqual({ key: 'invalidAgeError', values: { count: 18 } });
    expect(errors.ninedigitbin?.key).toBe('invalid');
    expect(errors.pp?.key).toBe('required');
  });

  it('reports date of birth parts as §5 says', () => {
    expect(validateFormData(schema, { ...firstbankRegistration, dob: '1990--12' }, { today }).dob?.key).toBe('IncompleteFieldError');
    expect(validateFormData(schema, { ...firstbankRegistration, dob: '1990-02-30' }, { today }).dob?.key).toBe('incompleteFormateError');
    expect(validateFormData(schema, { ...firstbankRegistration, dob: '1899-12-31' }, { today }).dob?.key).toBe('maxAgeError');
  });

  it('refuses fields the form does not have, and wrong types, by name', () => {
    const errors = validateFormData(
      schema,
      { ...firstbankRegistration, isAdmin: true, title: 42, marketing_opt_ins: { email: 'yes', bogus: true } },
      { today },
    );
    expect(errors).toMatchObject({
      title: { key: 'invalid' },
      'marketing_opt_ins.email': { key: 'invalid' },
      'marketing_opt_ins.bogus': { key: 'invalid' },
      isAdmin: { key: 'invalid' },
    });
  });

  it('refuses a value outside a select list and a payload that is not an object', () => {
    expect(validateFormData(schema, { ...firstbankRegistration, title: 'king' }, { today }).title?.key).toBe('invalid');
    expect(validateFormData(schema, [1, 2], { today })).toEqual({ '': { key: 'invalid' } });
    expect(validateFormData(schema, 'text', { today })).toEqual({ '': { key: 'invalid' } });
  });

  it('checks nested address parts with dotted paths (Brazilian site)', () => {
    const brazil = buildFormSchema(readSiteFixture('bancosol'), 'pt_br', 'registration').schema;
    const errors = validateFormData(brazil, { address: { street: 'Rua A', number: '10', city: 'http://evil', zipcode: '0100' } }, { today });
    expect(errors['address.city']?.key).toBe('error');
    expect(errors['address.zipcode']?.key).toBe('invalid');
    expect(errors['address.neighborhood']?.key).toBe('required');
  });

  it('refuses a Mandatory address block left out entirely, part by part (SPEC §3 Address, §5 form controls)', () => {
    // bancosol makes the address Mandatory (level 0); leaving the whole block out is not a way around its parts.
    const brazil = buildFormSchema(readSiteFixture('bancosol'), 'pt_br', 'registration').schema;
    const errors = validateFormData(brazil, {}, { today });
    for (const part of ['street', 'number', 'neighborhood', 'city', 'state', 'zipcode']) {
      expect(errors[`address.${part}`]?.key).toBe('required');
    }
    expect(errors['address.additionalInformation']).toBeUndefined();
  });

  it('refuses an oversized value', () => {
    expect(validateFormData(schema, { ...firstbankRegistration, last_name: 'a'.repeat(101) }, { today }).last_name?.key).toBe('tooLong');
  });
});

describe('validateFormData on the schema keywords a field carries (json-schema.ts subset)', () => {
  const form = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', properties, additionalProperties: false });

  it('refuses text with a rule that is longer than the field allows, even when the rule itself allows more', () => {
    // The `text` rule's own limit is the default 100; the field's maxLength (10) is the one the screen counts down.
    const schema = form({ note: { type: 'string', maxLength: 10, 'x-rule': { name: 'text' } } });
    expect(validateFormData(schema, { note: 'a'.repeat(10) })).toEqual({});
    expect(validateFormData(schema, { note: 'a'.repeat(11) })).toEqual({ note: { key: 'tooLong', values: { count: 10 } } });
  });

  it('holds a field without a rule to its pattern, its maxLength and its minLength', () => {
    const schema = form({ code: { type: 'string', pattern: '^[0-9]{6}$' }, country: { type: 'string', maxLength: 2, minLength: 2 } });
    expect(validateFormData(schema, { code: '123456', country: 'US' })).toEqual({});
    expect(validateFormData(schema, { code: '12345a', country: 'USA' })).toEqual({
      code: { key: 'invalid' },
      country: { key: 'tooLong', values: { count: 2 } },
    });
    expect(validateFormData(schema, { code: 'x123456', country: 'U' })).toEqual({ code: { key: 'invalid' }, country: { key: 'invalid' } });
  });

  it('checks every item of a list against the items it may hold', () => {
    const schema = form({ topics: { type: 'array', items: { type: 'string', enum: ['travel', 'dining'] }, uniqueItems: true, maxItems: 2 } });
    expect(validateFormData(schema, { topics: ['travel', 'dining'] })).toEqual({});
    expect(validateFormData(schema, { topics: ['travel', 'casino'] })).toEqual({ topics: { key: 'invalid' } });
    expect(validateFormData(schema, { topics: ['travel', 'travel'] })).toEqual({ topics: { key: 'invalid' } });
  });

  it('reads an absent or null payload as an empty one, and tells valid from invalid (isFormValid)', () => {
    const schema = form({ name: { type: 'string' } });
    const required: JsonSchema = { ...schema, required: ['name'] };
    expect(validateFormData(required, null)).toEqual({ name: { key: 'required' } });
    expect(validateFormData(required, undefined)).toEqual({ name: { key: 'required' } });
    expect(isFormValid(required, {})).toBe(false);
    expect(isFormValid(required, { name: 'Ana' })).toBe(true);
  });

  it('refuses keys the form does not have only when it says so (additionalProperties false)', () => {
    expect(validateFormData({ type: 'object', properties: { name: { type: 'string' } } }, { name: 'Ana', extra: 'x' })).toEqual({});
    expect(validateFormData(form({ name: { type: 'string' } }), { name: 'Ana', extra: 'x' })).toEqual({ extra: { key: 'invalid' } });
  });

  it('skips an optional block left out, and checks one that is sent', () => {
    const schema = form({ address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } });
    expect(validateFormData(schema, {})).toEqual({});
    expect(validateFormData(schema, { address: {} })).toEqual({ 'address.city': { key: 'required' } });
  });

  it('asks a required checkbox to be given, and refuses one that is not true or false', () => {
    const schema: JsonSchema = { ...form({ pp: { type: 'boolean' } }), required: ['pp'] };
    expect(validateFormData(schema, {})).toEqual({ pp: { key: 'required' } });
    expect(validateFormData(schema, { pp: 'yes' })).toEqual({ pp: { key: 'invalid' } });
    expect(validateFormData(schema, { pp: false })).toEqual({});
  });

  it('checks a list: required, a list at all, at most maxItems, and every item a storable text', () => {
    const topics: JsonSchema = { type: 'array', items: { type: 'string' }, maxItems: 2 };
    const schema: JsonSchema = { ...form({ topics, optionalTopics: topics }), required: ['topics'] };
    expect(validateFormData(schema, { topics: ['a'] })).toEqual({});
    expect(validateFormData(schema, {})).toEqual({ topics: { key: 'required' } });
    expect(validateFormData(schema, { topics: [] })).toEqual({ topics: { key: 'required' } });
    expect(validateFormData(schema, { topics: ['a'], optionalTopics: [] })).toEqual({});
    expect(validateFormData(schema, { topics: 'a' })).toEqual({ topics: { key: 'invalid' } });
    expect(validateFormData(schema, { topics: ['a', 'b', 'c'] })).toEqual({ topics: { key: 'invalid' } });
    expect(validateFormData(schema, { topics: ['a', ''] })).toEqual({ topics: { key: 'invalid' } });
    // A list that names no item schema takes any items.
    expect(validateFormData(form({ tags: { type: 'array' } }), { tags: ['a', 'b'] })).toEqual({});
  });

  it('leaves an optional field with a rule and a maxLength alone when it is not sent', () => {
    const schema = form({ note: { type: 'string', maxLength: 10, 'x-rule': { name: 'text' } } });
    expect(validateFormData(schema, {})).toEqual({});
  });

  it('answers a field without a rule: required when empty, invalid when not text, invalidCharacter for a control character', () => {
    const schema: JsonSchema = { ...form({ code: { type: 'string' }, hint: { type: 'string' } }), required: ['code'] };
    expect(validateFormData(schema, { code: 'a' })).toEqual({});
    expect(validateFormData(schema, { code: 'a', hint: null })).toEqual({});
    expect(validateFormData(schema, { code: 'a', hint: '' })).toEqual({});
    expect(validateFormData(schema, { code: '' })).toEqual({ code: { key: 'required' } });
    expect(validateFormData(schema, { code: null })).toEqual({ code: { key: 'required' } });
    expect(validateFormData(schema, { code: 42 })).toEqual({ code: { key: 'invalid' } });
    expect(validateFormData(schema, { code: 'a\u0007b' })).toEqual({ code: { key: 'invalidCharacter' } });
  });
});
