import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../../schemas/forms/build-form-schema';
import { generateFieldValue } from '../../../schemas/forms/generated-values';
import type { JsonSchema } from '../../../schemas/forms/json-schema';
import { simulateSite, type SimulationInputs } from '../../../schemas/site-config/site-simulation';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { validateField, type RuleName } from '../../../schemas/validators';
import { createEvalFreeValidator } from '../../../widgets/form-engine/eval-free-validator';
import { REPO_ROOT } from '../../e2e/support/paths';
import { listSiteFixtures, readSiteFixture } from '../../support/site-fixtures';

// ADR 0001 "Simulation" and ADR 0005 "Masks and regexps": sites:check fills every form of a site with values
// made from its own masks and regexps, through the validators the browser and the gateway run.

const CONTENT: SimulationInputs['content'] = new Map(
  readdirSync(`${REPO_ROOT}/fixtures/content`)
    .filter((name) => name.endsWith('.json'))
    .map((name) => [
      name.slice(0, -'.json'.length),
      JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/content/${name}`, 'utf8')) as Record<string, Record<string, string>>,
    ]),
);
const INPUTS: SimulationInputs = { today: { year: 2026, month: 11, day: 28 }, content: CONTENT };

/** firstbank with its phone, national id and address Mandatory, and the given user_enrollment settings. */
function firstbankWith(enrollment: Record<string, string>, others: Record<string, Record<string, string>> = {}): SiteConfig {
  const site = readSiteFixture('firstbank');
  for (const feature of site.siteFeatureConfigurations) {
    if (feature.name === 'user_site_profile') Object.assign(feature.featureConfig, { phone: '0', nationalId: '0', address: '0', 'address.zipcode': '0' });
    if (feature.name === 'user_enrollment') {
      for (const key of [
        'phone_mask',
        'phone_regexp',
        'phone_example',
        'postal_code_mask',
        'postal_code_regexp',
        'postal_code_example',
        'national_id_example',
      ]) {
        delete feature.featureConfig[key];
      }
      Object.assign(feature.featureConfig, { national_id_type: 'other' }, enrollment);
    }
    Object.assign(feature.featureConfig, others[feature.name] ?? {});
  }
  return site;
}

const enrollmentIndex = (site: SiteConfig): number => site.siteFeatureConfigurations.findIndex((feature) => feature.name === 'user_enrollment');
const settingPath = (site: SiteConfig, key: string): string => `$.siteFeatureConfigurations[${enrollmentIndex(site)}].featureConfig.${key}`;

/** The Portuguese postal code of the issue: the regexp written as the holder sees the value. */
const PORTUGUESE_POSTAL_CODE = { postal_code_mask: '0000-000', postal_code_regexp: '^\\d{4}-\\d{3}$', postal_code_example: '1000-001' };

describe('the rule for masks and regexps (ADR 0005): met by the value as shown or by the bare value', () => {
  const site = firstbankWith(PORTUGUESE_POSTAL_CODE);
  const registration = buildFormSchema(site, 'en_us', 'registration').schema;
  const zipcode = registration.properties?.address?.properties?.zipcode as JsonSchema;

  it('accepts the Portuguese postal code in the browser as the masked widget stores it (the bare digits) and as shown', () => {
    const validator = createEvalFreeValidator({ today: () => INPUTS.today });
    for (const value of ['1000001', '1000-001']) {
      const { errors } = validator.validateFormData({ address: { zipcode: value } }, registration);
      expect(errors.filter((error) => error.property === '.address.zipcode')).toEqual([]);
    }
    const { errors } = validator.validateFormData({ address: { zipcode: '10000-01' } }, registration);
    expect(errors.filter((error) => error.property === '.address.zipcode').map((error) => error.name)).toEqual(['invalid']);
  });

  it('is one function for every masked field: a regexp as shown and one written bare accept the same values', () => {
    expect(zipcode['x-rule']).toEqual({ name: 'postalCode', options: { mask: '0000-000', regexp: '^\\d{4}-\\d{3}$' } });
    const asShown = { mask: '0000-000', regexp: '^\\d{4}-\\d{3}$' };
    const bare = { mask: '0000-000', regexp: '^\\d{7}$' };
    for (const value of ['1000001', '1000-001', '1000-01', '10000011', '1000 001']) {
      expect(validateField(value, { rule: 'postalCode', options: asShown }), value).toEqual(validateField(value, { rule: 'postalCode', options: bare }));
    }
  });

  // One per masked field kind, each regexp written as the field shows the value; the widget stores the bare characters.
  it.each<[string, RuleName, Record<string, string | null>, string]>([
    ['phone', 'phone', { mask: '000 000 000', regexp: '^9[1236][0-9] [0-9]{3} [0-9]{3}$', locale: 'en_us' }, '912345678'],
    ['national id', 'nationalId', { nationalIdType: 'other', mask: '00.000.000', regexp: '^\\d{2}\\.\\d{3}\\.\\d{3}$' }, '12345678'],
    ['postal code', 'postalCode', { mask: '0000-000', regexp: '^\\d{4}-\\d{3}$' }, '1000001'],
  ])('%s: the bare value the widget stores meets a regexp written as shown', (_kind, rule, options, stored) => {
    expect(validateField(stored, { rule, options, required: true })).toBeNull();
  });
});

describe('simulateSite', () => {
  it('passes every bundled site in every locale it is for (no mistakes)', () => {
    for (const site of listSiteFixtures()) expect(simulateSite(site, `${site.siteId}.json`, INPUTS).mistakes, site.siteId).toEqual([]);
  });

  it('passes the Portuguese postal code whose regexp is written as shown (the site the portal refused every holder of)', () => {
    expect(simulateSite(firstbankWith(PORTUGUESE_POSTAL_CODE), 'portugal.json', INPUTS).mistakes).toEqual([]);
  });

  it('refuses a mask and regexp no value can meet, naming the file, the JSON path, the values tried and why', () => {
    const site = firstbankWith({ postal_code_mask: '0000-000', postal_code_regexp: '^\\d{5}$' });
    const { mistakes } = simulateSite(site, 'portugal.json', INPUTS);
    expect(mistakes).toHaveLength(1);
    expect(mistakes[0]).toMatchObject({ file: 'portugal.json', path: settingPath(site, 'postal_code_regexp') });
    expect(mistakes[0]?.expected).toContain('address.zipcode');
    expect(mistakes[0]?.actual).toMatch(/^none of 300 values drawn from its mask and regexp passes the validators the browser and the gateway run: /);
    expect(mistakes[0]?.actual).toMatch(/"\d{5}" \(drawn from the regexp\): it does not fill the 7 slots of the mask "0000-000"/);
    expect(mistakes[0]?.actual).toMatch(
      /"\d{7}" \(drawn from the mask\): the regexp \^\\d\{5\}\$ matches it neither as shown \("\d{4}-\d{3}"\) nor bare \("\d{7}"\)/,
    );
  });

  // One impossible pair per masked field kind; the bin's mask is its length, which a value always fills.
  it.each<[string, Record<string, string>, string]>([
    ['phone', { phone_mask: '000 000 000', phone_regexp: '^[0-9]{10}$' }, 'phone_regexp'],
    ['national id', { national_id_mask: '00.000.000', national_id_regexp: '^[A-Z]{8}$' }, 'national_id_regexp'],
    ['postal code', { postal_code_mask: 'A0A 0A0', postal_code_regexp: '^[0-9]{6}$' }, 'postal_code_regexp'],
  ])('refuses a %s whose mask and regexp no value meets', (_kind, enrollment, key) => {
    const site = firstbankWith(enrollment);
    const { mistakes } = simulateSite(site, 'site.json', INPUTS);
    expect(mistakes.map((mistake) => mistake.path)).toEqual([settingPath(site, key)]);
  });

  it.each(['6', '8', '9'])('fills a bin of %s digits from its mask (digits, starting with 4)', (length) => {
    const site = firstbankWith({ bin_length: length });
    expect(simulateSite(site, 'site.json', INPUTS).mistakes).toEqual([]);
    const bin = buildFormSchema(site, 'en_us', 'registration').schema.properties?.ninedigitbin as JsonSchema;
    const generated = generateFieldValue(bin, 'ninedigitbin');
    expect(generated.ok && generated.value.stored).toMatch(new RegExp(`^4[0-9]{${Number(length) - 1}}$`));
  });

  // The four kinds of masks our fixtures use: parentheses and a dash (firstbank's phone), spaces (dohabank's),
  // digits alone (firstbank's postal code), letters and digits (maplecu's), each with its regexp written as shown and bare.
  it.each<[string, 'phone' | 'postal_code', string, string, string]>([
    ['parentheses and a dash', 'phone', '(000) 000-0000', '^\\([2-9]\\d{2}\\) [2-9]\\d{2}-\\d{4}$', '^[2-9]\\d{2}[2-9]\\d{6}$'],
    ['spaces', 'phone', '0000 0000', '^[3567]\\d{3} \\d{4}$', '^[3567]\\d{7}$'],
    ['digits alone', 'postal_code', '00000', '^\\d{5}$', '^[0-9]{5}$'],
    ['letters and digits', 'postal_code', 'A0A 0A0', '^[A-Z]\\d[A-Z] \\d[A-Z]\\d$', '^[A-Z]\\d[A-Z]\\d[A-Z]\\d$'],
  ])('a mask of %s: the regexp written as shown and written bare both fill the field, stored bare and shown', (_kind, field, mask, asShown, bare) => {
    for (const regexp of [asShown, bare]) {
      const site = firstbankWith({
        [`${field}_mask`]: mask,
        [`${field}_regexp`]: regexp,
        ...(field === 'postal_code' ? { postal_code_uppercase: 'true' } : {}),
      });
      expect(simulateSite(site, 'site.json', INPUTS).mistakes, regexp).toEqual([]);
      const schema = buildFormSchema(site, 'en_us', 'registration').schema;
      const fieldSchema = (field === 'phone' ? schema.properties?.phone : schema.properties?.address?.properties?.zipcode) as JsonSchema;
      const generated = generateFieldValue(fieldSchema, field);
      expect(generated.ok, regexp).toBe(true);
      if (!generated.ok) continue;
      const rule = fieldSchema['x-rule']!;
      expect(generated.value.stored).toMatch(/^[0-9A-Z]+$/);
      for (const value of [generated.value.stored, generated.value.shown]) {
        expect(validateField(value, { rule: rule.name, options: rule.options ?? {}, required: true }), `${regexp} ${value}`).toBeNull();
      }
    }
  });

  it('refuses an example its own field refuses once typed in, at the example’s path', () => {
    const site = firstbankWith({ postal_code_mask: '0000-000', postal_code_regexp: '^1\\d{3}-\\d{3}$', postal_code_example: '2000-001' });
    const { mistakes } = simulateSite(site, 'site.json', INPUTS);
    expect(mistakes).toEqual([
      {
        file: 'site.json',
        path: settingPath(site, 'postal_code_example'),
        expected: "an example the site's own address.zipcode field accepts once typed into it (registration, en_us)",
        actual: '"2000001": the regexp ^1\\d{3}-\\d{3}$ matches it neither as shown ("2000-001") nor bare ("2000001")',
      },
    ]);
  });

  // SPEC §5: a refused value is told the format it should have; where the mask and regexp cannot say it, the example does.
  it('warns at the example setting of a field whose error could not say what it expects, and at no bundled site', () => {
    const site = firstbankWith({ postal_code_mask: '00000', postal_code_regexp: '^[0-9]{5}$' }, { user_site_profile: { 'address.zipcode': '0' } });
    expect(simulateSite(site, 'site.json', INPUTS).warnings.map((warning) => [warning.path, warning.expected])).toEqual([
      [settingPath(site, 'postal_code_example'), expect.stringContaining('an example for the address.zipcode field (registration, en_us)')],
    ]);
    const withExample = firstbankWith(
      { postal_code_mask: '00000', postal_code_regexp: '^[0-9]{5}$', postal_code_example: '10001' },
      { user_site_profile: { 'address.zipcode': '0' } },
    );
    expect(simulateSite(withExample, 'site.json', INPUTS).warnings).toEqual([]);
    for (const bundled of listSiteFixtures()) {
      const warnings = simulateSite(bundled, `${bundled.siteId}.json`, INPUTS).warnings.filter((warning) => warning.path.endsWith('_example'));
      expect(warnings, bundled.siteId).toEqual([]);
    }
  });

  it('refuses a Mandatory field no value can fill: a pt_br phone under an eight-digit mask can never be a Brazilian mobile', () => {
    const site = firstbankWith({ phone_mask: '0000 0000' }, { site_locales: { locales: 'pt_br' } });
    const { mistakes } = simulateSite(site, 'site.json', INPUTS);
    expect(mistakes.map((mistake) => mistake.path)).toEqual([settingPath(site, 'phone_mask')]);
    expect(mistakes[0]?.actual).toContain('a pt_br phone is a mobile');
  });

  it('refuses a card input too short for a card number', () => {
    const site = firstbankWith({}, { pan_capture: { maxLength: '16' } });
    const panCapture = site.siteFeatureConfigurations.findIndex((feature) => feature.name === 'pan_capture');
    expect(simulateSite(site, 'site.json', INPUTS).mistakes).toEqual([
      {
        file: 'site.json',
        path: `$.siteFeatureConfigurations[${panCapture}].featureConfig.maxLength`,
        expected: 'a card input long enough for a card number shown as "4111 1111 1111 1111"',
        actual: '"4111 1111 1111 1" fits in 16 characters and is refused with invalid',
      },
    ]);
  });

  it('warns at a locale whose form texts come mostly from en_us, and at a text no file of the chain has', () => {
    const site = firstbankWith({}, { site_locales: { locales: 'it_it en_us' } });
    const locales = site.siteFeatureConfigurations.findIndex((feature) => feature.name === 'site_locales');
    const withoutPhoneLabel = new Map(CONTENT);
    const english = CONTENT.get('en_us')!;
    withoutPhoneLabel.set('en_us', { ...english, form: Object.fromEntries(Object.entries(english.form!).filter(([key]) => key !== 'label.phone')) });
    const { mistakes, warnings } = simulateSite(site, 'site.json', { ...INPUTS, content: withoutPhoneLabel });
    expect(mistakes).toEqual([]);
    expect(warnings.map((warning) => [warning.path, warning.actual])).toEqual([
      [`$.siteFeatureConfigurations[${locales}].featureConfig.locales`, 'no file has "label.phone"'],
      [
        `$.siteFeatureConfigurations[${locales}].featureConfig.locales`,
        expect.stringMatching(/^\d+ of the \d+ form texts of it_it come from en_us \(fallback chain en_us\)$/),
      ],
    ]);
  });
});
