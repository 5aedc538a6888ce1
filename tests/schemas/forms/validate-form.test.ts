import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { isFormValid, validateFormData } from '../../../schemas/forms/validate-form';
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
