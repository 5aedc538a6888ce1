import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { readSettingHelp } from '../../../gateway/features/site-studio/setting-help';
import { FEATURE_SETTINGS } from '../../../schemas/site-config/fixture-format';
import { messagesAt, parseSiteText, placeOf, siteText, valueLabels, withSetting, type StudioSite } from '../../../src/studio/studio-model';
import { REPO_ROOT } from '../../e2e/support/paths';

const site: StudioSite = {
  $schema: '../../schemas/site-config/site-fixture.schema.json',
  name: 'Lisboa Rewards',
  siteId: 'lisboa',
  theme: 'classic',
  siteFeatureConfigurations: [
    { name: 'user_site_profile', featureConfig: { 'address.zipcode': '1' } },
    { name: 'user_enrollment', featureConfig: { postal_code_mask: '0000-000' } },
  ],
};

describe('the studio editor and its JSON view (docs/decisions/0027-site-studio.md)', () => {
  it('a setting typed into the form is the JSON view’s next text, $schema and the other settings kept', () => {
    const edited = withSetting(site, 1, 'postal_code_regexp', '^\\d{4}-\\d{3}$');
    const parsed = parseSiteText(siteText(edited));
    expect(parsed).toEqual({ ok: true, site: edited });
    expect(parsed.ok && parsed.site.$schema).toBe(site.$schema);
    expect(parsed.ok && parsed.site.siteFeatureConfigurations[1]?.featureConfig).toEqual({
      postal_code_mask: '0000-000',
      postal_code_regexp: '^\\d{4}-\\d{3}$',
    });
  });

  it('an emptied setting leaves the file', () => {
    expect(withSetting(site, 1, 'postal_code_mask', '').siteFeatureConfigurations[1]?.featureConfig).toEqual({});
  });

  it('a broken JSON view says where it broke, and the form keeps the last site', () => {
    const text = siteText(site).replace('"theme": "classic",', '"theme": "classic"');
    const parsed = parseSiteText(text);
    expect(parsed).toMatchObject({ ok: false, line: 6 });
    expect(parseSiteText('[1, 2]')).toMatchObject({ ok: false, message: expect.stringContaining('siteFeatureConfigurations') });
  });

  it('a JSON view the form cannot draw says which feature, and the form keeps the last site (the page went blank)', () => {
    const shaped = (features: unknown[]) => parseSiteText(JSON.stringify({ ...site, siteFeatureConfigurations: features }, null, 2));
    expect(shaped([null])).toMatchObject({ ok: false, line: 6, message: expect.stringContaining('siteFeatureConfigurations[0] is not a feature') });
    expect(shaped([{ featureConfig: {} }])).toMatchObject({ ok: false, message: expect.stringContaining('siteFeatureConfigurations[0] is not a feature') });
    expect(shaped([{ name: 'cms', featureConfig: [] }])).toMatchObject({
      ok: false,
      message: expect.stringContaining('siteFeatureConfigurations[0].featureConfig'),
    });
    expect(shaped([{ name: 'cms', featureConfig: { tenant: { vpp: true } } }])).toMatchObject({ ok: false, message: expect.stringContaining('"tenant"') });
    expect(parseSiteText(JSON.stringify({ ...site, name: { en: 'Lisboa' } }))).toMatchObject({
      ok: false,
      message: expect.stringContaining('"name" is not a plain value'),
    });
    // A number where the format wants a string is the check's to name: the form still draws it.
    expect(shaped([{ name: 'user_asset_profile', featureConfig: { pan: 0 } }])).toMatchObject({ ok: true });
  });

  it('places each check message at its setting, feature, top-level key, JSON text position, or the site', () => {
    expect(placeOf('$.siteFeatureConfigurations[1].featureConfig.postal_code_regexp')).toEqual({ kind: 'setting', feature: 1, key: 'postal_code_regexp' });
    expect(placeOf("$.siteFeatureConfigurations[0].featureConfig['address.zipcode']")).toEqual({ kind: 'setting', feature: 0, key: 'address.zipcode' });
    expect(placeOf('$.siteFeatureConfigurations[13].name')).toEqual({ kind: 'feature', feature: 13 });
    expect(placeOf('$.siteFeatureConfigurations[5].featureConfig')).toEqual({ kind: 'feature', feature: 5 });
    expect(placeOf('$.siteId')).toEqual({ kind: 'top', key: 'siteId' });
    expect(placeOf('line 3, column 7')).toEqual({ kind: 'json', line: 3, column: 7 });
    expect(placeOf('$')).toEqual({ kind: 'site' });
    const messages = [
      { path: '$.siteFeatureConfigurations[1].featureConfig.postal_code_regexp', expected: 'a regular expression that compiles' },
      { path: '$.siteFeatureConfigurations[1].featureConfig.postal_code_mask', expected: 'a mask' },
      { path: '$.siteFeatureConfigurations[2].name', expected: 'a feature name' },
    ];
    expect(messagesAt(messages, { kind: 'setting', feature: 1, key: 'postal_code_regexp' })).toEqual([messages[0]]);
    expect(messagesAt(messages, { kind: 'feature', feature: 2 })).toEqual([messages[2]]);
  });

  it('names what each level code and privacy-policy display does, from ADR 0001, where the select showed bare codes', () => {
    const { values } = readSettingHelp(resolve(REPO_ROOT, 'docs/decisions/0001-site-fixture-format.md'));
    expect(valueLabels('phone', FEATURE_SETTINGS.user_site_profile.phone!, values)).toEqual({
      '0': '"0" Mandatory: the field is on registration and required',
      '1': '"1" Optional: on registration and optional',
      '2': '"2" None: asked nowhere',
      '3': '"3" ProfileOptional: left out of registration and offered, optional, on edit-profile',
      '4': '"4" None: asked nowhere',
      '5': '"5" Mandatory: the field is on registration and required',
    });
    expect(valueLabels('privacy_policy_display', FEATURE_SETTINGS.user_enrollment.privacy_policy_display!, values)).toEqual({
      A: '"A": shows the pp checkbox and requires it',
      B: '"B": shows it optional',
      C: '"C": shows the policy text with no checkbox',
    });
    // Values that are no codes show as themselves.
    expect(valueLabels('national_id_type', FEATURE_SETTINGS.user_enrollment.national_id_type!, values)).toBeNull();
    expect(valueLabels('postal_code_mask', FEATURE_SETTINGS.user_enrollment.postal_code_mask!, values)).toBeNull();
  });
});
