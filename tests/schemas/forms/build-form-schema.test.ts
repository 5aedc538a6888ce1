import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import type { SiteConfig } from '../../../schemas/site-config/types';
import type { UiSchema } from '../../../schemas/forms/json-schema';
import { siteLocalesOf } from '../../../schemas/site-config/site-locales';
import { DEFAULT_FORM_TEXTS, findText } from '../../../widgets/form-engine/form-texts';
import { listSiteFixtures, readSiteFixture } from '../../support/site-fixtures';

/** A site with just the settings a test names. */
function site(globalProfile: Record<string, string>, siteProfile: Record<string, string> = {}, enrollment: Record<string, string> = {}): SiteConfig {
  return {
    name: 'Test',
    siteId: 'test',
    theme: 'classic',
    siteFeatureConfigurations: [
      { name: 'user_global_profile', featureConfig: globalProfile },
      { name: 'user_site_profile', featureConfig: siteProfile },
      { name: 'user_enrollment', featureConfig: enrollment },
    ],
  };
}

describe('requirement levels (SPEC §3 server codes, §5 form controls)', () => {
  it.each([
    ['0', true, true],
    ['5', true, true],
    ['1', true, false],
    ['2', false, false],
    ['4', false, false],
    ['3', false, false],
  ])('code %s: shown in registration %s, required %s', (code, shown, required) => {
    const { schema } = buildFormSchema(site({ first_name: code }), 'en_us', 'registration');
    expect('first_name' in (schema.properties ?? {})).toBe(shown);
    expect(schema.required?.includes('first_name')).toBe(required);
  });

  it('ProfileOptional (3) is left out of registration but offered, optional, on edit-profile', () => {
    const config = site({ first_name: '0' }, { phone: '3' });
    expect(buildFormSchema(config, 'en_us', 'registration').schema.properties).not.toHaveProperty('phone');
    const profile = buildFormSchema(config, 'en_us', 'edit-profile').schema;
    expect(profile.properties).toHaveProperty('phone');
    expect(profile.required).not.toContain('phone');
  });

  it('the profile form omits password, confirm password, email, national id and privacy policy', () => {
    const config = site(
      { first_name: '0', email: '0', password: '0', confirm_password: '0' },
      { nationalId: '0' },
      { privacy_policy_display: 'A', national_id_type: 'ssn' },
    );
    const registration = Object.keys(buildFormSchema(config, 'en_us', 'registration').schema.properties ?? {});
    expect(registration).toEqual(['first_name', 'email', 'password', 'confirm_password', 'nationalId', 'pp']);
    expect(Object.keys(buildFormSchema(config, 'en_us', 'edit-profile').schema.properties ?? {})).toEqual(['first_name']);
  });

  it.each([
    ['A', true, { type: 'boolean', const: true }],
    ['B', false, { type: 'boolean', default: false }],
    ['C', false, { type: 'boolean', default: false }],
  ])('privacy policy display %s: pp required %s', (display, required, ppSchema) => {
    const { schema, uiSchema } = buildFormSchema(site({ first_name: '0' }, {}, { privacy_policy_display: display }), 'en_us', 'registration');
    expect(schema.properties?.pp).toEqual(ppSchema);
    expect(schema.required?.includes('pp')).toBe(required);
    expect(uiSchema.pp).toMatchObject({ 'ui:widget': 'PrivacyPolicyWidget', 'ui:options': { display } });
  });

  it("the pp field carries the site's policy link; a URL that is not https is left out", () => {
    const linked = buildFormSchema(
      site({}, {}, { privacy_policy_display: 'A', privacy_policy_url: 'https://www.firstbank.example/privacy' }),
      'en_us',
      'registration',
    );
    expect(linked.uiSchema.pp).toMatchObject({ 'ui:options': { policyUrl: 'https://www.firstbank.example/privacy' } });
    const scripted = buildFormSchema(site({}, {}, { privacy_policy_display: 'A', privacy_policy_url: 'javascript:alert(1)' }), 'en_us', 'registration');
    expect(scripted.uiSchema.pp).toMatchObject({ 'ui:options': { display: 'A' } });
    expect(JSON.stringify(scripted.uiSchema.pp)).not.toContain('policyUrl');
  });
});

/** The label text of every field a form shows (nested address parts included), in the form's en_us words. */
function shownLabels(uiSchema: UiSchema): string[] {
  const labels: string[] = [];
  const visit = (node: UiSchema, isRoot: boolean) => {
    const labelKey = (node['ui:options'] as { labelKey?: unknown } | undefined)?.labelKey;
    const parts = Object.entries(node).filter(([key, value]) => !key.startsWith('ui:') && typeof value === 'object' && value !== null);
    if (!isRoot && parts.length === 0 && typeof labelKey === 'string') labels.push(findText(DEFAULT_FORM_TEXTS, labelKey) ?? labelKey);
    for (const [, part] of parts) visit(part as UiSchema, false);
  };
  visit(uiSchema, true);
  return labels;
}

// SPEC §3 lists `state` both as a site attribute and as an address part: a site naming both (firstbank does) once
// showed two "State" fields, one in the address and one below the ZIP code.
describe('no field twice', () => {
  it.each(listSiteFixtures().map((fixture) => [fixture.siteId, fixture] as const))('%s: every form in every locale shows each label once', (_id, fixture) => {
    for (const locale of siteLocalesOf(fixture)) {
      for (const form of ['registration', 'edit-profile', 'profile-view'] as const) {
        const labels = shownLabels(buildFormSchema(fixture, locale, form).uiSchema);
        expect(
          labels.filter((label, index) => labels.indexOf(label) !== index),
          `${form} ${locale}`,
        ).toEqual([]);
      }
    }
  });

  it("the site's own state attribute is the one State field; the address keeps its state only where the site asks no other", () => {
    const editProfile = buildFormSchema(readSiteFixture('firstbank'), 'en_us', 'edit-profile').schema;
    expect(editProfile.properties).toHaveProperty('state');
    expect(editProfile.properties?.address?.properties).not.toHaveProperty('state');
    const registration = buildFormSchema(site({ first_name: '0' }, { state: '0', address: '1', 'address.state': '1' }), 'en_us', 'registration').schema;
    expect(registration.required).toContain('state');
    expect(registration.properties?.address?.properties).not.toHaveProperty('state');
    // ProfileOptional is not shown at registration: there the address keeps its state.
    const onlyAddress = buildFormSchema(site({ first_name: '0' }, { state: '3', address: '0', 'address.state': '0' }), 'en_us', 'registration').schema;
    expect(onlyAddress.properties).not.toHaveProperty('state');
    expect(onlyAddress.properties?.address?.required).toContain('state');
  });
});

describe('site settings reach the rules (SPEC §5)', () => {
  it('the US site checks an ssn, a nine-digit bin and age 18 with its own masks', () => {
    const { schema, uiSchema } = buildFormSchema(readSiteFixture('firstbank'), 'en_us', 'registration');
    expect(schema.properties?.nationalId?.['x-rule']).toEqual({ name: 'nationalId', options: { nationalIdType: 'ssn', mask: '000-00-0000', regexp: null } });
    expect(schema.properties?.ninedigitbin?.['x-rule']).toEqual({ name: 'bin', options: { binLength: 9 } });
    expect(schema.properties?.dob?.['x-rule']).toEqual({ name: 'dob', options: { dateFormat: 'MM-DD-YYYY', minAge: 18 } });
    expect(uiSchema.phone).toMatchObject({ 'ui:widget': 'MaskedTextWidget', 'ui:options': { mask: '(000) 000-0000' } });
  });

  it('the European site uses the bin attribute with length 8 and min age 16', () => {
    const { schema } = buildFormSchema(readSiteFixture('eurobank'), 'de_de', 'registration');
    expect(schema.properties?.bin?.['x-rule']).toEqual({ name: 'bin', options: { binLength: 8 } });
    expect(schema.properties).not.toHaveProperty('ninedigitbin');
    expect(schema.properties?.dob?.['x-rule']?.options?.minAge).toBe(16);
  });

  it('the Brazilian site masks cpf, phone and postal code and passes the locale to the phone rule', () => {
    const { schema, uiSchema } = buildFormSchema(readSiteFixture('bancosol'), 'pt_br', 'registration');
    expect(schema.properties?.phone?.['x-rule']?.options).toMatchObject({ mask: '(00) 00000-0000', locale: 'pt_br' });
    expect(schema.properties?.nationalId?.['x-rule']?.options).toMatchObject({ nationalIdType: 'cpf', mask: '000.000.000-00' });
    expect((uiSchema.address as Record<string, unknown>).zipcode).toMatchObject({ 'ui:options': { mask: '00000-000' } });
  });

  it('is deterministic: the same input gives equal output', () => {
    const config = readSiteFixture('dohabank');
    expect(buildFormSchema(config, 'ar_qa', 'registration')).toEqual(buildFormSchema(config, 'ar_qa', 'registration'));
  });

  it('orders fields as a person fills them, the uiSchema order matching the schema', () => {
    const { schema, uiSchema } = buildFormSchema(readSiteFixture('bancosol'), 'pt_br', 'registration');
    const order = uiSchema['ui:order'] as string[];
    expect(order).toEqual(Object.keys(schema.properties ?? {}));
    expect(order.indexOf('first_name')).toBeLessThan(order.indexOf('email'));
    expect(order.indexOf('password')).toBeLessThan(order.indexOf('confirm_password'));
    expect(order.at(-1)).toBe('pp');
  });
});

describe('the small forms', () => {
  const config = readSiteFixture('firstbank');
  it.each([
    ['login', ['username', 'password']],
    ['change-password', ['currentPassword', 'password', 'confirm_password']],
    ['reset-password', ['passcode', 'password', 'confirm_password']],
    ['recovery', ['email']],
    ['otp', ['otp', 'trust_device']],
    ['passcode', ['passcode']],
  ] as const)('%s has %j', (form, fields) => {
    expect(Object.keys(buildFormSchema(config, 'en_us', form).schema.properties ?? {})).toEqual(fields);
  });
});

describe('blocks with nothing to show are left out', () => {
  const NO_ADDRESS_PART = Object.fromEntries(
    ['street', 'number', 'additionalInformation', 'neighborhood', 'city', 'state', 'zipcode'].map((part) => [`address.${part}`, '2']),
  );

  it('an address whose every part is None is no field at all', () => {
    const { schema, uiSchema } = buildFormSchema(site({ first_name: '0' }, { address: '0', ...NO_ADDRESS_PART }), 'en_us', 'registration');
    expect(Object.keys(schema.properties ?? {})).toEqual(['first_name']);
    expect(schema.required).toEqual(['first_name']);
    expect(uiSchema['ui:order']).toEqual(['first_name']);
  });

  it('marketing opt-ins shown on a site that offers none are no field at all', () => {
    const { schema, uiSchema } = buildFormSchema(site({ first_name: '0', marketing_opt_ins: '0' }), 'en_us', 'registration');
    expect(Object.keys(schema.properties ?? {})).toEqual(['first_name']);
    expect(uiSchema['ui:order']).toEqual(['first_name']);
  });

  it('the e-mail opt-in is an unticked checkbox', () => {
    const { schema, uiSchema } = buildFormSchema(site({ email_optin: '1' }), 'en_us', 'registration');
    expect(schema.properties?.email_optin).toEqual({ type: 'boolean', default: false });
    expect(uiSchema.email_optin).toEqual({ 'ui:widget': 'checkbox', 'ui:options': { labelKey: 'label.email_optin' } });
    expect(schema.required).toEqual([]);
  });
});

describe('expected-format hints: the error names the shape only when the shape is the whole rule', () => {
  const optionsOf = (uiSchema: UiSchema, key: string) => (uiSchema[key] as { 'ui:options': Record<string, unknown> })['ui:options'];
  const errorKeyOf = (uiSchema: UiSchema, key: string) => (optionsOf(uiSchema, key).expectedFormat as { errorKey?: string }).errorKey;

  it('phone: a mask alone, unless pt_br or a regexp checks more', () => {
    expect(errorKeyOf(buildFormSchema(site({ phone: '0' }, {}, { phone_mask: '0000 0000' }), 'en_us', 'registration').uiSchema, 'phone')).toBe('expected.mask');
    expect(errorKeyOf(buildFormSchema(site({ phone: '0' }, {}, { phone_mask: '(00) 00000-0000' }), 'pt_br', 'registration').uiSchema, 'phone')).toBeUndefined();
    expect(
      errorKeyOf(
        buildFormSchema(site({ phone: '0' }, {}, { phone_mask: '0000 0000', phone_regexp: '^[3567][0-9]{7}$' }), 'en_us', 'registration').uiSchema,
        'phone',
      ),
    ).toBeUndefined();
  });

  it('national id: a mask alone, unless cpf, ssn or a regexp checks more', () => {
    const other = (enrollment: Record<string, string>) =>
      buildFormSchema(site({}, { nationalId: '0' }, { national_id_type: 'other', ...enrollment }), 'en_us', 'registration').uiSchema;
    expect(errorKeyOf(other({ national_id_mask: '00.000.000' }), 'nationalId')).toBe('expected.mask');
    expect(errorKeyOf(other({ national_id_mask: '00.000.000', national_id_regexp: '^[1-9][0-9]{7}$' }), 'nationalId')).toBeUndefined();
    const cpf = buildFormSchema(site({}, { nationalId: '0' }, { national_id_type: 'cpf' }), 'en_us', 'registration').uiSchema;
    expect(errorKeyOf(cpf, 'nationalId')).toBeUndefined();
  });

  it('postal code: a mask alone, unless a regexp checks more; letters in the mask or no mask type as text', () => {
    const zipcodeOf = (enrollment: Record<string, string>) =>
      (buildFormSchema(site({}, { address: '0' }, enrollment), 'en_us', 'registration').uiSchema.address as UiSchema).zipcode as UiSchema;
    const options = (ui: UiSchema) => ui['ui:options'] as { inputMode: string; expectedFormat?: { errorKey?: string } };
    expect(options(zipcodeOf({ postal_code_mask: '00000' }))).toMatchObject({ inputMode: 'numeric', expectedFormat: { errorKey: 'expected.mask' } });
    expect(options(zipcodeOf({ postal_code_mask: '00000', postal_code_regexp: '^[0-9]{5}$' })).expectedFormat?.errorKey).toBeUndefined();
    expect(options(zipcodeOf({ postal_code_mask: 'A0A 0A0' })).inputMode).toBe('text');
    expect(options(zipcodeOf({ postal_code_regexp: '^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$' })).inputMode).toBe('text');
  });
});

describe('bin fields: their length and label', () => {
  it('the bin attribute asks the site table default 8 when the site sets no bin_length', () => {
    const { schema, uiSchema } = buildFormSchema(site({ bin: '0' }), 'en_us', 'registration');
    expect(schema.properties?.bin?.['x-rule']).toEqual({ name: 'bin', options: { binLength: 8 } });
    expect(uiSchema.bin).toMatchObject({ 'ui:options': { labelKey: 'label.bin', mask: '00000000' } });
  });

  it('ninedigitbin says "first 9 digits" only when it asks nine', () => {
    const nine = buildFormSchema(site({ ninedigitbin: '0' }), 'en_us', 'registration').uiSchema;
    expect(nine.ninedigitbin).toMatchObject({ 'ui:options': { labelKey: 'label.ninedigitbin', mask: '000000000' } });
    const eight = buildFormSchema(site({ ninedigitbin: '0' }, {}, { bin_length: '8' }), 'en_us', 'registration').uiSchema;
    expect(eight.ninedigitbin).toMatchObject({ 'ui:options': { labelKey: 'label.bin', mask: '00000000' } });
  });
});
