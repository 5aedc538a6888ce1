import { describe, expect, it } from 'vitest';
import { messagesAt, parseSiteText, placeOf, siteText, withSetting, type StudioSite } from '../../../src/studio/studio-model';

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
});
