import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { readSiteFormSettings } from '../../../schemas/forms/site-form-settings';
import { validateAttributeChanges, type AttributeCheckInputs } from '../../../schemas/forms/validate-attributes';
import type { SiteConfig } from '../../../schemas/site-config/types';
import firstbank from '../../../fixtures/sites/firstbank.json';

/** ADR 0010: each attribute of a partial save is checked with firstbank's own edit-profile schema. */
const site = firstbank as unknown as SiteConfig;
const inputs: AttributeCheckInputs = {
  schema: buildFormSchema(site, 'en_us', 'edit-profile').schema,
  marketingOptIns: readSiteFormSettings(site).marketingOptIns,
  offerCategoryIds: ['dining', 'travel', 'shopping'],
  today: { year: 2026, month: 11, day: 21 },
};
const check = (changes: Record<string, unknown>) => validateAttributeChanges(changes, inputs);
const keysOf = (changes: Record<string, unknown>) => Object.fromEntries(Object.entries(check(changes)).map(([field, error]) => [field, error.key]));

describe('validateAttributeChanges', () => {
  it('accepts valid changes of a few keys without asking for the Mandatory keys not sent', () => {
    expect(check({ first_name: 'Emily Rose', phone: '(202) 555-0143', marketing_opt_ins: { email: { optin: false }, cashback: { optin: true } } })).toEqual({});
    expect(
      check({ dob: '1988-04-12', offers_preference: ['dining', 'travel'], locale: 'en_us', address: { street: 'Main Street', zipcode: '20500' } }),
    ).toEqual({});
  });

  it.each(['.', '*', '+', '?', '^', '$', '{', '}', '(', ')', '<', '>', '|', '[', ']', '\\'])(
    'SPEC §5: a name containing %s is refused with "error"',
    (character) => {
      expect(keysOf({ last_name: `Car${character}ter` })).toEqual({ last_name: 'error' });
    },
  );

  it('SPEC §5: a phone not matching the site mask and pattern is invalid', () => {
    expect(keysOf({ phone: '(102) 555-0143' })).toEqual({ phone: 'invalid' });
    expect(keysOf({ phone: '555-0143' })).toEqual({ phone: 'invalid' });
  });

  it('SPEC §5: a dob with an empty part, an impossible date, under the site min age (18) or before 1900 is refused', () => {
    expect(keysOf({ dob: '1988--12' })).toEqual({ dob: 'IncompleteFieldError' });
    expect(keysOf({ dob: '1988-02-31' })).toEqual({ dob: 'incompleteFormateError' });
    expect(keysOf({ dob: '2010-01-01' })).toEqual({ dob: 'invalidAgeError' });
    expect(keysOf({ dob: '1899-12-31' })).toEqual({ dob: 'maxAgeError' });
  });

  it('a Mandatory key cannot be emptied, by "" or null; an Optional one can be removed', () => {
    expect(keysOf({ first_name: '', ninedigitbin: null, dob: null })).toEqual({ first_name: 'required', ninedigitbin: 'required', dob: 'required' });
    expect(keysOf({ phone: null, title: null, offers_preference: null })).toEqual({});
  });

  it('SPEC §5: the keys the profile form never edits are refused as notEditable', () => {
    expect(keysOf({ password: 'Secret#2025x', confirm_password: 'Secret#2025x', email: 'x@example.com', nationalId: '536224189', pp: true })).toEqual({
      password: 'notEditable',
      confirm_password: 'notEditable',
      email: 'notEditable',
      nationalId: 'notEditable',
      pp: 'notEditable',
    });
  });

  it('a key this site profile does not have (gender is None on firstbank) is unknownAttribute', () => {
    expect(keysOf({ favourite_colour: 'blue', gender: 'female', email_optin: true })).toEqual({
      favourite_colour: 'unknownAttribute',
      gender: 'unknownAttribute',
      email_optin: 'unknownAttribute',
    });
  });

  it('SPEC §3: an opt-in the site does not enable is notEnabled, an unknown one unknownAttribute, a bad entry invalid', () => {
    expect(
      keysOf({
        marketing_opt_ins: { sms: { optin: true }, newsletter: { optin: true }, email: true, online: { optin: 'true' }, cashback: { optin: true, extra: 1 } },
      }),
    ).toEqual({
      'marketing_opt_ins.sms': 'notEnabled',
      'marketing_opt_ins.newsletter': 'unknownAttribute',
      'marketing_opt_ins.email': 'invalid',
      'marketing_opt_ins.online': 'invalid',
      'marketing_opt_ins.cashback': 'invalid',
    });
    expect(keysOf({ marketing_opt_ins: ['email'] })).toEqual({ marketing_opt_ins: 'invalid' });
  });

  it('SPEC §7: an offer category outside the site locale group is unknownCategory; duplicates and non-lists are invalid', () => {
    expect(keysOf({ offers_preference: ['dining', 'football'] })).toEqual({ offers_preference: 'unknownCategory' });
    expect(keysOf({ offers_preference: ['dining', 'dining'] })).toEqual({ offers_preference: 'invalid' });
    expect(keysOf({ offers_preference: 'dining' })).toEqual({ offers_preference: 'invalid' });
  });

  it('wrong types are invalid, not coerced', () => {
    expect(keysOf({ first_name: 42, title: ['ms'], dob: 19880412, address: 'Main St 1', locale: 'english', phone: true })).toEqual({
      first_name: 'invalid',
      title: 'invalid',
      dob: 'invalid',
      address: 'invalid',
      locale: 'invalid',
      phone: 'invalid',
    });
  });

  it('SPEC §5 default max length 100: a huge string is invalid with its limit', () => {
    expect(check({ last_name: 'a'.repeat(10_000) })).toEqual({ last_name: { key: 'tooLong', values: { count: 100 } } });
    expect(keysOf({ address: { street: 'x'.repeat(101) } })).toEqual({ 'address.street': 'tooLong' });
  });

  it('SPEC §5 address parts refuse tags, URLs and relative paths, by part', () => {
    expect(keysOf({ address: { street: '<b>Main</b>', city: 'https://evil.example', zipcode: '1234' } })).toEqual({
      'address.street': 'error',
      'address.city': 'error',
      'address.zipcode': 'invalid',
    });
  });

  it('a legacy opt-in name may be removed (saving drops them), never set', () => {
    expect(keysOf({ sms_optin: null, trnxn_data_optin: null })).toEqual({});
    expect(keysOf({ sms_optin: 'true' })).toEqual({ sms_optin: 'unknownAttribute' });
  });

  it('skips the category check when the caller has no category list', () => {
    expect(validateAttributeChanges({ offers_preference: ['anything'] }, { ...inputs, offerCategoryIds: null })).toEqual({});
  });
});
