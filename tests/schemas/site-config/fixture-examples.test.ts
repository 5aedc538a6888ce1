import { describe, expect, it } from 'vitest';
import { checkSiteFixture, checkSiteFixtureWarnings } from '../../../schemas/site-config/fixture-check';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { listSiteFixtures, readSiteFixture } from '../../support/site-fixtures';

// SPEC §5 and fixtures/README.md "What a formatted field expects": an example must pass the site's
// own rule, named by file, setting and value; a regexp-only field without a describable shape or an
// example is warned about.

/** The site with its user_enrollment settings changed; `undefined` removes a setting. */
function withEnrollment(siteId: string, changes: Record<string, string | undefined>): { site: SiteConfig; index: number } {
  const site = readSiteFixture(siteId);
  const index = site.siteFeatureConfigurations.findIndex((feature) => feature.name === 'user_enrollment');
  const settings = { ...site.siteFeatureConfigurations[index]!.featureConfig };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete settings[key];
    else settings[key] = value;
  }
  site.siteFeatureConfigurations[index] = { name: 'user_enrollment', featureConfig: settings };
  return { site, index };
}

describe('sites:check and the example settings', () => {
  it("refuses an example the site's own regexp refuses, naming the site, the setting and the value", () => {
    const { site, index } = withEnrollment('sabana', { national_id_example: '0123' });
    expect(checkSiteFixture(site, 'fixtures/sites/sabana.json')).toEqual([
      {
        file: 'fixtures/sites/sabana.json',
        path: `$.siteFeatureConfigurations[${index}].featureConfig.national_id_example`,
        expected: "an example the site's own national_id_regexp accepts (user_enrollment.national_id_example)",
        actual: '"0123"',
      },
    ]);
  });

  it('refuses an example that does not fill the mask', () => {
    const { site } = withEnrollment('bancosol', { phone_example: '(11) 8765-4321' });
    const [mistake] = checkSiteFixture(site, 'fixtures/sites/bancosol.json');
    expect(mistake).toMatchObject({
      expected: "an example the site's own phone_mask and phone_regexp accepts (user_enrollment.phone_example)",
      actual: '"(11) 8765-4321"',
    });
  });

  it('checks an example after the upper-casing the site asks for', () => {
    expect(checkSiteFixture(withEnrollment('harbourbank', { national_id_example: 'a123456(7)' }).site, 'harbourbank.json')).toEqual([]);
    const notUpperCased = withEnrollment('harbourbank', { national_id_example: 'a123456(7)', national_id_uppercase: 'false' }).site;
    expect(checkSiteFixture(notUpperCased, 'harbourbank.json')).toHaveLength(1);
  });

  it('refuses an upper-case setting that is not "true" or "false"', () => {
    const [mistake] = checkSiteFixture(withEnrollment('northbank', { postal_code_uppercase: 'yes' }).site, 'northbank.json');
    expect(mistake).toMatchObject({ expected: '"true" or "false" (user_enrollment.postal_code_uppercase)', actual: '"yes"' });
  });

  it('warns about a regexp-only field it cannot describe and that has no example, and only then', () => {
    const { site, index } = withEnrollment('harbourbank', { national_id_example: undefined });
    expect(checkSiteFixtureWarnings(site, 'harbourbank.json')).toEqual([
      {
        file: 'harbourbank.json',
        path: `$.siteFeatureConfigurations[${index}].featureConfig.national_id_example`,
        expected: 'an example value for national_id_regexp (user_enrollment.national_id_example), so the form can show what it expects',
        actual: 'nothing',
      },
    ]);
    // "6 to 10 digits" is read from sabana's regexp; a masked field shows its mask.
    expect(checkSiteFixtureWarnings(withEnrollment('sabana', { national_id_example: undefined }).site, 'sabana.json')).toEqual([]);
    expect(checkSiteFixtureWarnings(readSiteFixture('bancosol'), 'bancosol.json')).toEqual([]);
  });

  it.each(listSiteFixtures().map((site) => [site.siteId, site] as const))('%s has no warning', (siteId, site) => {
    expect(checkSiteFixtureWarnings(site, `${siteId}.json`)).toEqual([]);
  });
});
