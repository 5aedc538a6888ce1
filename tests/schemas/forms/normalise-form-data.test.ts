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
