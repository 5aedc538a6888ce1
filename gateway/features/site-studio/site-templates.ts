import type { SiteConfig } from '../../../schemas/site-config/types';

/** A template the studio starts a new site from (docs/decisions/0027-site-studio.md): a site the check passes, to be renamed. */
export interface SiteTemplate {
  id: string;
  title: string;
  site: SiteConfig & { $schema: string };
}

const SCHEMA_PATH = '../../schemas/site-config/site-fixture.schema.json';
const CARD_MODULE_PATHS = {
  assetsUrl: 'user-attribute/user/assets',
  assetsValidationUrl: 'user-attribute/user/assets/validation',
  updateAssetUrl: 'user-attribute/user/assets/{{id}}',
};

export const SITE_TEMPLATES: readonly SiteTemplate[] = [
  {
    id: 'cards-and-address',
    title: 'A classic site: names, e-mail, password, phone, an address with a postal code, and cards at registration',
    site: {
      $schema: SCHEMA_PATH,
      name: 'New Site Rewards',
      siteId: 'newsite',
      theme: 'classic',
      siteFeatureConfigurations: [
        {
          name: 'user_global_profile',
          featureConfig: { first_name: '0', last_name: '0', email: '0', password: '0', confirm_password: '0', dob: '1', locale: '0' },
        },
        { name: 'user_site_profile', featureConfig: { phone: '1', address: '1', 'address.street': '1', 'address.city': '1', 'address.zipcode': '1' } },
        { name: 'user_asset_profile', featureConfig: { pan: '0' } },
        {
          name: 'user_enrollment',
          featureConfig: {
            date_format: 'DD/MM/YYYY',
            dob_min_age: '18',
            privacy_policy_display: 'A',
            privacy_policy_url: 'https://www.newsite.example/privacy',
          },
        },
        {
          name: 'pan_capture',
          featureConfig: { name: 'New Site', updatable: 'true', optional: 'false', validate: 'true', limit: '3', maxLength: '19', ...CARD_MODULE_PATHS },
        },
        { name: 'site_auth_profile', featureConfig: { auth_mechanism: 'CLASSIC', login_otp: 'email', mfa: 'optional' } },
        { name: 'cms', featureConfig: { tenant: 'default' } },
        { name: 'allow_delete_profile', featureConfig: { allow_delete_profile: 'true' } },
        { name: 'site_locales', featureConfig: { locales: 'en_us' } },
      ],
    },
  },
];
