import { describe, expect, it } from 'vitest';
import { payloadErrors } from '../../../gateway/forms/validate-payload';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { realFixtures } from '../support/test-gateway';

// ADR 0005 "Masks and regexps": the gateway checks a payload with the rule the browser uses, so a postal code
// whose regexp is written as the holder sees it (mask 0000-000, ^\d{4}-\d{3}$) accepts the bare digits the
// masked widget sends, as well as the value as shown.
describe('the gateway on a Portuguese postal code whose regexp is written as shown', async () => {
  const real = await realFixtures();
  const firstbank = real.sites.get('firstbank')!;
  const config: SiteConfig = structuredClone(firstbank.config);
  for (const feature of config.siteFeatureConfigurations) {
    if (feature.name === 'user_site_profile') Object.assign(feature.featureConfig, { address: '0', 'address.zipcode': '0' });
    if (feature.name === 'user_enrollment') Object.assign(feature.featureConfig, { postal_code_mask: '0000-000', postal_code_regexp: '^\\d{4}-\\d{3}$' });
  }
  const fixtures: Fixtures = { ...real, sites: new Map([...real.sites, ['lisbon', { config: { ...config, siteId: 'lisbon' }, raw: '' }]]) };
  const today = new Date(Date.UTC(2026, 10, 28));
  const zipcodeError = (zipcode: string): string | undefined =>
    payloadErrors(fixtures, { siteId: 'lisbon', locale: 'en_us', form: 'edit-profile' }, { address: { zipcode } }, today)['address.zipcode'];

  it.each(['1000001', '1000-001'])('accepts %s', (zipcode) => {
    expect(zipcodeError(zipcode)).toBeUndefined();
  });

  it.each(['1000-01', '10000-01', '1000 001'])('refuses %s with invalid', (zipcode) => {
    expect(zipcodeError(zipcode)).toBe('invalid');
  });
});
