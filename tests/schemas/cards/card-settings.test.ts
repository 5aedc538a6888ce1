import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkBinRanges, isCardActive, lookupBinRange, type BinRange } from '../../../schemas/cards/bin-ranges';
import { cardConfigOf } from '../../../schemas/cards/card-config';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { validateFormData } from '../../../schemas/forms/validate-form';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { CVV_EXPECTED_FORMAT } from '../../../schemas/forms/expected-format';
import { validateCvv } from '../../../schemas/validators/cvv';
import { readSiteFixture } from '../../support/site-fixtures';

/**
 * ADR 0001 "Card settings": the pan_capture settings check_card_active_status and capture_cvv, the
 * user_enrollment six_digit_verification, and SPEC §5's defaults when a site sets nothing (the locale phone
 * masks, the bin site table), as the browser and the gateway both read them from schemas/.
 */
const ranges = JSON.parse(readFileSync(fileURLToPath(new URL('../../../fixtures/bin-ranges.json', import.meta.url)), 'utf8')) as BinRange[];
/** fixtures/README.md: Luhn-valid, in the range marked inactive (eligible, product C). */
const INACTIVE = '4622940000000007';

function site(siteProfile: Record<string, string>, enrollment: Record<string, string> = {}, globalProfile: Record<string, string> = {}): SiteConfig {
  return {
    name: 'Test',
    siteId: 'test',
    theme: 'classic',
    siteFeatureConfigurations: [
      { name: 'user_global_profile', featureConfig: { email: '0', password: '0', ...globalProfile } },
      { name: 'user_site_profile', featureConfig: siteProfile },
      { name: 'user_enrollment', featureConfig: enrollment },
    ],
  };
}

const ruleOf = (config: SiteConfig, key: string, locale = 'en_us') => buildFormSchema(config, locale, 'registration').schema.properties?.[key]?.['x-rule'];
const uiOptionsOf = (config: SiteConfig, key: string, locale = 'en_us') =>
  (buildFormSchema(config, locale, 'registration').uiSchema[key] as { 'ui:options'?: Record<string, unknown> } | undefined)?.['ui:options'];

describe('check_card_active_status: the BIN table says which cards are inactive', () => {
  it('4622 94xx xxxx xxxx is eligible (product C) but not active; the well-known numbers are active', () => {
    expect(lookupBinRange(ranges, INACTIVE, 'firstbank')).toMatchObject({ eligible: true, productType: 'C' });
    expect(isCardActive(ranges, INACTIVE, 'firstbank')).toBe(false);
    for (const digits of ['4111111111111111', '4242424242424242', '4000056655665556']) expect(isCardActive(ranges, digits, 'firstbank')).toBe(true);
    // No range: not refused as inactive, it is not eligible (which says more).
    expect(isCardActive(ranges, '4917610000000000', 'firstbank')).toBe(true);
  });

  it('the most specific range decides, as for eligibility: a site range can mark its own cards inactive', () => {
    const own: BinRange[] = [
      { from: '411111', to: '411111', productType: 'C', eligible: true },
      { from: '41111122', to: '41111122', productType: 'C', eligible: true, active: false, siteIds: ['sabana'] },
    ];
    expect(isCardActive(own, '4111112200000000', 'sabana')).toBe(false);
    expect(isCardActive(own, '4111112200000000', 'firstbank')).toBe(true);
  });

  it('sites:check refuses an `active` that is not true or false', () => {
    const range = { from: '411111', to: '411111', productType: 'C', eligible: true, active: 'no' };
    expect(checkBinRanges([range], 'bin-ranges.json', new Set(['firstbank']))).toEqual([
      { file: 'bin-ranges.json', path: '$[0].active', expected: 'true or false', actual: '"no"' },
    ]);
  });

  it('the card config reads the setting: firstbank checks, eurobank does not', () => {
    expect(cardConfigOf({ check_card_active_status: 'true' }).checkActiveStatus).toBe(true);
    expect(cardConfigOf({ check_card_active_status: 'false' }).checkActiveStatus).toBe(false);
    expect(cardConfigOf({}).checkActiveStatus).toBe(false);
  });
});

describe('capture_cvv: exactly three digits', () => {
  it.each([['123'], ['000'], ['737']])('%s is a security code', (value) => {
    expect(validateCvv(value)).toBeNull();
  });

  it.each([
    ['two digits', '12'],
    ['four digits', '1234'],
    ['five digits', '12345'],
    ['a letter', '12a'],
    ['a space', '12 3'],
    ['full-width digits', '１２３'],
  ])('%s is invalid, with the expected length', (_name, value) => {
    expect(validateCvv(value)).toEqual({ key: 'invalid', values: { count: 3 } });
  });

  it('empty is required', () => {
    expect(validateCvv('')).toEqual({ key: 'required' });
  });

  it('its expected format is that of any digits-only field: "3 digits" as hint and error', () => {
    expect(CVV_EXPECTED_FORMAT).toEqual({ hintKey: 'hint.digits', errorKey: 'expected.digits', values: { count: 3 } });
  });

  it('sabana captures it (its fixture), firstbank does not', () => {
    const panCapture = (siteId: string) =>
      cardConfigOf(readSiteFixture(siteId).siteFeatureConfigurations.find((feature) => feature.name === 'pan_capture')!.featureConfig);
    expect(panCapture('sabana').captureCvv).toBe(true);
    expect(panCapture('firstbank').captureCvv).toBe(false);
  });
});

describe('six_digit_verification: the bin field asks the first six digits', () => {
  it('six digits whatever bin_length says, for both bin attributes', () => {
    const verified = site({ bin: '0', ninedigitbin: '0' }, { bin_length: '9', six_digit_verification: 'true' });
    expect(ruleOf(verified, 'bin')).toEqual({ name: 'bin', options: { binLength: 6 } });
    expect(ruleOf(verified, 'ninedigitbin')).toEqual({ name: 'bin', options: { binLength: 6 } });
    expect(uiOptionsOf(verified, 'bin')).toMatchObject({ mask: '000000' });
    // Never "First 9 digits of your card" over a field that takes six.
    expect(uiOptionsOf(verified, 'ninedigitbin')).toMatchObject({ mask: '000000', labelKey: 'label.bin' });
    const errors = (bin: string) =>
      validateFormData(buildFormSchema(verified, 'en_us', 'registration').schema, {
        email: 'a@example.com',
        password: 'Rewards#2025x',
        bin,
        ninedigitbin: '411111',
      });
    expect(errors('411111').bin).toBeUndefined();
    expect(errors('41111111').bin).toEqual({ key: 'invalid', values: { count: 6 } });
  });

  it('off, bin_length applies', () => {
    const nineDigits = site({ ninedigitbin: '0' }, { bin_length: '9', six_digit_verification: 'false' });
    expect(ruleOf(nineDigits, 'ninedigitbin')).toEqual({ name: 'bin', options: { binLength: 9 } });
    expect(uiOptionsOf(nineDigits, 'ninedigitbin')).toMatchObject({ mask: '000000000', labelKey: 'label.ninedigitbin' });
  });
});

describe('SPEC §5 defaults when the site sets nothing', () => {
  it('the bin site table: the `bin` attribute is 8 digits, `ninedigitbin` 9; bin_length still wins', () => {
    expect(ruleOf(site({ bin: '0' }), 'bin')).toEqual({ name: 'bin', options: { binLength: 8 } });
    expect(ruleOf(site({ ninedigitbin: '0' }), 'ninedigitbin')).toEqual({ name: 'bin', options: { binLength: 9 } });
    expect(ruleOf(site({ bin: '0' }, { bin_length: '9' }), 'bin')).toEqual({ name: 'bin', options: { binLength: 9 } });
  });

  it('the bin site table: min age 16 when dob_min_age is unset, the site value otherwise', () => {
    const withDob = (enrollment: Record<string, string>) => site({ bin: '0' }, enrollment, { dob: '0' });
    expect(ruleOf(withDob({}), 'dob')).toMatchObject({ options: { minAge: 16 } });
    expect(ruleOf(withDob({ dob_min_age: '18' }), 'dob')).toMatchObject({ options: { minAge: 18 } });
  });

  it.each([
    ['pt_br', '(00) 00000-0000'],
    ['ar_qa', '0000 0000'],
    ['en_qa', '0000 0000'],
  ])('a phone on a %s page without phone_mask takes the mask %s, in the schema the gateway rebuilds too', (locale, mask) => {
    const config = site({ phone: '0' });
    expect(ruleOf(config, 'phone', locale)).toMatchObject({ options: { mask } });
    expect(uiOptionsOf(config, 'phone', locale)).toMatchObject({ mask });
  });

  it('a site mask wins over the locale default; other locales keep the generic international pattern (no mask)', () => {
    expect(ruleOf(site({ phone: '0' }, { phone_mask: '000 000 0000' }), 'phone', 'pt_br')).toMatchObject({ options: { mask: '000 000 0000' } });
    expect(ruleOf(site({ phone: '0' }), 'phone', 'en_us')).toMatchObject({ options: { mask: null } });
  });

  it('a Qatar phone without a site mask must have the mask’s 8 digits', () => {
    const schema = buildFormSchema(site({ phone: '0' }), 'ar_qa', 'registration').schema;
    const phoneError = (phone: string) => validateFormData(schema, { email: 'a@example.com', password: 'Rewards#2025x', phone }).phone;
    expect(phoneError('5512 3456')).toBeUndefined();
    expect(phoneError('5512 34567')).toEqual({ key: 'invalid' });
  });
});
