import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { normaliseFormData } from '../../../schemas/forms/normalise-form-data';
import { validateFormData } from '../../../schemas/forms/validate-form';
import { readSiteFixture } from '../../support/site-fixtures';

/** Names lose the spaces at their ends, in the browser (SiteForm, its validator) and the gateway alike. */
describe('normaliseFormData: names trimmed at both ends', () => {
  const { schema } = buildFormSchema(readSiteFixture('firstbank'), 'en_us', 'registration');

  it('"  Zoë  " is "Zoë"; other text fields keep their spaces', () => {
    const data = normaliseFormData(schema, { first_name: '  Zoë  ', last_name: '\u00a0Carter ', email: 'zoe@example.com' });
    expect(data).toEqual({ first_name: 'Zoë', last_name: 'Carter', email: 'zoe@example.com' });
  });

  it('a name of spaces only is an empty, required name', () => {
    const errors = validateFormData(schema, normaliseFormData(schema, { first_name: '   ' }), { today: new Date('2026-01-01') });
    expect(errors.first_name?.key).toBe('required');
  });
});

/** SPEC §9 date format: a date of birth typed "1" / "1" / "1980" is stored as 1980-01-01, by the browser and the gateway alike. */
describe('normaliseFormData: a date of birth in YYYY-MM-DD', () => {
  const { schema } = buildFormSchema(readSiteFixture('sabana'), 'es_co', 'registration');

  it('one-digit month and day are zero-padded; incomplete or canonical values stay as typed', () => {
    expect(normaliseFormData(schema, { dob: '1980-1-1' })).toEqual({ dob: '1980-01-01' });
    expect(normaliseFormData(schema, { dob: '1980-12-7' })).toEqual({ dob: '1980-12-07' });
    expect(normaliseFormData(schema, { dob: '1980-01-01' })).toEqual({ dob: '1980-01-01' });
    expect(normaliseFormData(schema, { dob: '1980--1' })).toEqual({ dob: '1980--1' });
    expect(normaliseFormData(schema, { dob: '' })).toEqual({ dob: '' });
  });

  it('the padded value passes the same rules as the typed one', () => {
    expect(validateFormData(schema, normaliseFormData(schema, { dob: '1980-1-1' }), { today: new Date('2026-01-01') }).dob).toBeUndefined();
  });
});
