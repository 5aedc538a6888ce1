import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSettingsWithoutEffect, checkSiteFixture, type FixtureMistake } from '../../../schemas/site-config/fixture-check';
import { editDistance, nearMisses } from '../../../schemas/site-config/fixture-rules';
import type { FeatureName, SiteConfig } from '../../../schemas/site-config/types';

// docs/decisions/0001-site-fixture-format.md "Rules beyond the format": every file that the format
// accepts but the portal could not run is refused, built here from EVERY fixture so no site's shape
// escapes a rule; settings without effect are warnings at their own JSON path.
const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const FIXTURE_FILES = [
  ...readdirSync(`${FIXTURES}sites`)
    .filter((name) => name.endsWith('.json'))
    .map((name) => `sites/${name}`),
  'default-site.json',
];

type Site = SiteConfig & Record<string, unknown>;

function load(file: string): Site {
  return JSON.parse(readFileSync(`${FIXTURES}${file}`, 'utf8')) as Site;
}

function indexOf(site: SiteConfig, name: FeatureName): number {
  return site.siteFeatureConfigurations.findIndex((feature) => feature.name === name);
}

/** The feature's settings, adding the feature when the fixture has none. */
function settingsOf(site: SiteConfig, name: FeatureName): Record<string, string> {
  if (indexOf(site, name) < 0) site.siteFeatureConfigurations.push({ name, featureConfig: {} });
  return site.siteFeatureConfigurations[indexOf(site, name)]!.featureConfig;
}

function remove(site: SiteConfig, name: FeatureName): void {
  site.siteFeatureConfigurations = site.siteFeatureConfigurations.filter((feature) => feature.name !== name);
}

const at = (site: SiteConfig, name: FeatureName, key?: string): string =>
  `$.siteFeatureConfigurations[${indexOf(site, name)}].featureConfig${key === undefined ? '' : key.includes('.') ? `['${key}']` : `.${key}`}`;

const fileName = (file: string) => `fixtures/${file}`;

interface Rule {
  rule: string;
  /** Breaks the copy and returns the code and the JSON paths of the errors it must give. */
  breakIt: (site: Site) => { code: string; paths: string[] };
}

const RULES: Rule[] = [
  ...(['assetsUrl', 'assetsValidationUrl', 'updateAssetUrl'] as const).map((key): Rule => ({
    rule: `pan_capture without ${key} (SPEC §8 "Missing required options for …PanModule")`,
    breakIt: (site) => {
      delete settingsOf(site, 'pan_capture')[key];
      return { code: 'pan-capture-option-missing', paths: [at(site, 'pan_capture', key)] };
    },
  })),
  {
    rule: 'cards captured at registration (pan Mandatory) with no pan_capture',
    breakIt: (site) => {
      remove(site, 'pan_capture');
      settingsOf(site, 'user_asset_profile').pan = '0';
      return { code: 'cards-without-pan-capture', paths: [at(site, 'user_asset_profile', 'pan')] };
    },
  },
  {
    rule: 'marketing_optins offered without a marketing_opt_ins level',
    breakIt: (site) => {
      delete settingsOf(site, 'user_site_profile').marketing_opt_ins;
      settingsOf(site, 'marketing_optins').email = 'true';
      return { code: 'opt-ins-without-level', paths: [at(site, 'marketing_optins')] };
    },
  },
  {
    rule: 'a marketing_opt_ins level with every opt-in "false"',
    breakIt: (site) => {
      settingsOf(site, 'user_site_profile').marketing_opt_ins = '0';
      const optIns = settingsOf(site, 'marketing_optins');
      for (const key of ['email', 'transactional', 'sms', 'online', 'cashback']) optIns[key] = 'false';
      return { code: 'level-without-opt-ins', paths: [at(site, 'user_site_profile', 'marketing_opt_ins')] };
    },
  },
  {
    rule: 'a marketing_opt_ins level with no marketing_optins feature',
    breakIt: (site) => {
      remove(site, 'marketing_optins');
      settingsOf(site, 'user_site_profile').marketing_opt_ins = '1';
      return { code: 'level-without-opt-ins', paths: [at(site, 'user_site_profile', 'marketing_opt_ins')] };
    },
  },
  {
    rule: 'auth_mechanism SSO without issuer_url, client_id and redirect_uris',
    breakIt: (site) => {
      const auth = settingsOf(site, 'site_auth_profile');
      auth.auth_mechanism = 'SSO';
      // An OpenID Connect site: the default protocol, no SAML settings (ADR 0028).
      for (const key of ['issuer_url', 'client_id', 'redirect_uris', 'protocol', ...Object.keys(auth).filter((name) => name.startsWith('saml_'))])
        delete auth[key];
      return {
        code: 'sso-setting-missing',
        paths: ['issuer_url', 'client_id', 'redirect_uris'].map((key) => at(site, 'site_auth_profile', key)),
      };
    },
  },
  {
    rule: 'protocol saml without saml_sp_entity_id and saml_acs_url',
    breakIt: (site) => {
      const auth = settingsOf(site, 'site_auth_profile');
      for (const key of ['issuer_url', 'client_id', 'redirect_uris', 'client_auth', 'saml_sp_entity_id', 'saml_acs_url']) delete auth[key];
      Object.assign(auth, { auth_mechanism: 'SSO', protocol: 'saml', saml_idp_metadata_url: 'https://idp.example/metadata' });
      delete auth.saml_idp_metadata;
      return { code: 'saml-setting-missing', paths: ['saml_sp_entity_id', 'saml_acs_url'].map((key) => at(site, 'site_auth_profile', key)) };
    },
  },
  {
    rule: 'protocol saml without the identity provider metadata',
    breakIt: (site) => {
      const auth = settingsOf(site, 'site_auth_profile');
      for (const key of ['issuer_url', 'client_id', 'redirect_uris', 'client_auth', 'saml_idp_metadata_url', 'saml_idp_metadata']) delete auth[key];
      Object.assign(auth, {
        auth_mechanism: 'SSO',
        protocol: 'saml',
        saml_sp_entity_id: 'urn:example:sp',
        saml_acs_url: 'https://portal.example/api/user-auth/saml/acs/x',
      });
      return { code: 'saml-metadata', paths: [at(site, 'site_auth_profile', 'saml_idp_metadata_url')] };
    },
  },
  {
    rule: 'a global key placed in user_site_profile',
    breakIt: (site) => {
      settingsOf(site, 'user_site_profile').first_name = '0';
      return { code: 'unknown-key', paths: [at(site, 'user_site_profile', 'first_name')] };
    },
  },
  {
    rule: 'a misspelt feature name',
    breakIt: (site) => {
      site.siteFeatureConfigurations.push({ name: 'pan_captur' as FeatureName, featureConfig: {} });
      return { code: 'unknown-feature', paths: [`$.siteFeatureConfigurations[${site.siteFeatureConfigurations.length - 1}].name`] };
    },
  },
];

describe.each(FIXTURE_FILES)('a broken copy of %s', (file) => {
  it('is right before it is broken', () => {
    expect(checkSiteFixture(load(file), fileName(file))).toEqual([]);
  });

  it.each(RULES)('refuses $rule', ({ breakIt }) => {
    const site = load(file);
    const { code, paths } = breakIt(site);
    const mistakes = checkSiteFixture(site, fileName(file));
    expect(mistakes.map((mistake) => ({ code: mistake.code, path: mistake.path, file: mistake.file }))).toEqual(
      paths.map((path) => ({ code, path, file: fileName(file) })),
    );
  });
});

describe('the messages name what to do', () => {
  const firstbank = () => load('sites/firstbank.json');
  const only = (site: SiteConfig): FixtureMistake => {
    const mistakes = checkSiteFixture(site, 'fixtures/sites/firstbank.json');
    expect(mistakes).toHaveLength(1);
    return mistakes[0]!;
  };

  it('says which options the card module needs and the error a card holder would see', () => {
    const site = firstbank();
    delete settingsOf(site, 'pan_capture').assetsUrl;
    expect(only(site)).toMatchObject({
      expected:
        'pan_capture.assetsUrl: the card screens need assetsUrl, assetsValidationUrl and updateAssetUrl, or they fail with "Missing required options for FirstBankPanModule" (SPEC §8) (pan_capture.assetsUrl)',
      actual: 'missing',
    });
  });

  it('says the offered opt-ins are never shown without their level', () => {
    const site = firstbank();
    delete settingsOf(site, 'user_site_profile').marketing_opt_ins;
    expect(only(site)).toMatchObject({
      expected: 'a "marketing_opt_ins" level in user_site_profile (e.g. "1" Optional): without it the offered opt-ins are never shown (marketing_optins)',
      actual: 'email, transactional, online, cashback offered, no marketing_opt_ins level',
    });
  });

  it('points a key placed under the wrong feature to the feature it belongs to', () => {
    const site = firstbank();
    settingsOf(site, 'user_global_profile').phone = '1';
    expect(only(site).expected).toBe(
      'a key of user_global_profile; did you mean `user_site_profile`? "phone" is a setting of user_site_profile (user_global_profile.phone)',
    );
  });

  it('suggests near-miss spellings of keys and feature names (two edits at most)', () => {
    const site = firstbank();
    settingsOf(site, 'cms').tennant = 'vpp';
    expect(only(site).expected).toBe('a key of cms; did you mean "tenant"? (cms.tennant)');
    const misnamed = firstbank();
    misnamed.siteFeatureConfigurations.push({ name: 'site_brnad' as FeatureName, featureConfig: {} });
    expect(only(misnamed).expected).toBe('a feature name; did you mean "site_brand"?');
    expect(nearMisses('pan_captured', ['pan_capture', 'cms'])).toEqual(['pan_capture']);
    expect(nearMisses('tenancies', ['tenant'])).toEqual([]);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('reports a mistake in every feature at once, each with the file and its JSON path', () => {
    const site = firstbank();
    settingsOf(site, 'user_global_profile').dob = '9';
    settingsOf(site, 'user_site_profile').first_name = '0';
    delete settingsOf(site, 'user_site_profile').marketing_opt_ins;
    settingsOf(site, 'user_asset_profile').pan = 'x';
    settingsOf(site, 'user_enrollment').bin_length = '99';
    delete settingsOf(site, 'pan_capture').updateAssetUrl;
    settingsOf(site, 'marketing_optins').emial = 'true';
    settingsOf(site, 'vba').compromised_password_check = 'yes';
    Object.assign(settingsOf(site, 'site_auth_profile'), { auth_mechanism: 'SSO' });
    settingsOf(site, 'cms').tenant = 'VPP';
    settingsOf(site, 'allow_delete_profile').allow_delete_profile = 'no';
    settingsOf(site, 'mobile_app').app_scheme = 'http://';
    settingsOf(site, 'site_locales').locales = 'xx_yy';
    settingsOf(site, 'site_brand').primary_color = 'blue';
    const mistakes = checkSiteFixture(site, 'fixtures/sites/firstbank.json');
    expect(new Set(mistakes.map((mistake) => mistake.file))).toEqual(new Set(['fixtures/sites/firstbank.json']));
    expect(mistakes.map((mistake) => mistake.path).sort()).toEqual(
      [
        at(site, 'user_global_profile', 'dob'),
        at(site, 'user_site_profile', 'first_name'),
        at(site, 'marketing_optins'),
        at(site, 'user_asset_profile', 'pan'),
        at(site, 'user_enrollment', 'bin_length'),
        at(site, 'pan_capture', 'updateAssetUrl'),
        at(site, 'marketing_optins', 'emial'),
        at(site, 'vba', 'compromised_password_check'),
        at(site, 'site_auth_profile', 'issuer_url'),
        at(site, 'site_auth_profile', 'client_id'),
        at(site, 'site_auth_profile', 'redirect_uris'),
        at(site, 'cms', 'tenant'),
        at(site, 'allow_delete_profile', 'allow_delete_profile'),
        at(site, 'mobile_app', 'app_scheme'),
        at(site, 'site_locales', 'locales'),
        at(site, 'site_brand', 'primary_color'),
      ].sort(),
    );
  });
});

describe('settings without effect are warnings at their JSON path', () => {
  const warningsOf = (site: SiteConfig) =>
    checkSettingsWithoutEffect(site, 'fixtures/sites/x.json').map(({ code, path, expected }) => ({ code, path, expected }));

  it('warns that compromised_password_check has no effect when vba.enabled is "false", never failing the check for it', () => {
    const site = load('sites/unionbank.json');
    Object.assign(settingsOf(site, 'vba'), { enabled: 'false', compromised_password_check: 'true' });
    expect(checkSiteFixture(site, 'fixtures/sites/unionbank.json')).toEqual([]);
    expect(warningsOf(site)).toEqual(
      expect.arrayContaining([
        {
          code: 'no-effect',
          path: at(site, 'vba', 'compromised_password_check'),
          expected:
            'nothing here, as this setting has no effect: compromised_password_check is read only when vba.enabled is not "false" (vba.compromised_password_check)',
        },
      ]),
    );
  });

  it('connected_app names the app on an SSO site only: on a password site it is a warning at its path', () => {
    const sso = load('sites/unionbank.json');
    expect(warningsOf(sso).filter(({ path }) => path === at(sso, 'site_auth_profile', 'connected_app'))).toEqual([]);
    const classic = load('sites/harbourbank.json');
    settingsOf(classic, 'site_auth_profile').connected_app = 'Smile';
    expect(checkSiteFixture(classic, 'fixtures/sites/harbourbank.json')).toEqual([]);
    expect(warningsOf(classic)).toContainEqual({
      code: 'no-effect',
      path: at(classic, 'site_auth_profile', 'connected_app'),
      expected: 'nothing here, as this setting has no effect: connected_app is read only when auth_mechanism is "SSO" (site_auth_profile.connected_app)',
    });
  });

  it('does not warn about vba.enabled, the switch of the breached-password flow (ADR 0009), nor about the check it leaves on', () => {
    const site = load('sites/northbank.json');
    for (const enabled of ['true', 'false']) {
      Object.assign(settingsOf(site, 'vba'), { enabled });
      expect(warningsOf(site).filter((warning) => warning.path === at(site, 'vba', 'enabled'))).toEqual([]);
    }
    settingsOf(site, 'vba').enabled = 'true';
    expect(warningsOf(site).filter((warning) => warning.path.includes(at(site, 'vba')))).toEqual([]);
  });

  it.each(['redeemed_offers', 'campaigns', 'marketing_platform_level_optin', 'customerOriginDetails'])(
    'warns that the data-only attribute %s is never shown and its Mandatory level has no effect',
    (key) => {
      const site = load('sites/northbank.json');
      settingsOf(site, 'user_site_profile')[key] = '0';
      expect(checkSiteFixture(site, 'fixtures/sites/northbank.json')).toEqual([]);
      expect(warningsOf(site)).toContainEqual({
        code: 'data-only-attribute',
        path: at(site, 'user_site_profile', key),
        expected: `no level: ${key} is never shown, it is a data-only attribute no form asks for (ADR 0001 "Data-only attributes"), so a Mandatory level has no effect (user_site_profile.${key})`,
      });
    },
  );

  it('does not warn about the card settings another change gives an effect (check_card_active_status, capture_cvv, six_digit_verification)', () => {
    const site = load('sites/firstbank.json');
    Object.assign(settingsOf(site, 'pan_capture'), { check_card_active_status: 'true', capture_cvv: 'true' });
    settingsOf(site, 'user_enrollment').six_digit_verification = 'true';
    const paths = warningsOf(site).map((warning) => warning.path);
    expect(paths).not.toContain(at(site, 'pan_capture', 'check_card_active_status'));
    expect(paths).not.toContain(at(site, 'pan_capture', 'capture_cvv'));
    expect(paths).not.toContain(at(site, 'user_enrollment', 'six_digit_verification'));
  });

  it('warns at six_digit_verification on a site with no bin field: it reshapes that field and nothing else (ADR 0001 "Card settings")', () => {
    const site = load('sites/sabana.json');
    settingsOf(site, 'user_enrollment').six_digit_verification = 'true';
    expect(warningsOf(site)).toContainEqual({
      code: 'no-effect',
      path: at(site, 'user_enrollment', 'six_digit_verification'),
      expected:
        'nothing here, as this setting has no effect: six_digit_verification shapes the bin or ninedigitbin field, which this site never shows (user_enrollment.six_digit_verification)',
    });
  });

  it('warns at SSO settings of a CLASSIC site, a store page without an app scheme, address parts without an address, and an opt-in list whose level is None', () => {
    const site = load('sites/firstbank.json');
    settingsOf(site, 'site_auth_profile').client_id = 'firstbank';
    delete settingsOf(site, 'mobile_app').app_scheme;
    settingsOf(site, 'user_site_profile').address = '2';
    settingsOf(site, 'user_site_profile').marketing_opt_ins = '4';
    const paths = warningsOf(site)
      .filter((warning) => warning.code === 'no-effect')
      .map((warning) => warning.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        at(site, 'site_auth_profile', 'client_id'),
        at(site, 'mobile_app', 'android_store_url'),
        at(site, 'user_site_profile', 'address.street'),
        at(site, 'user_site_profile', 'address.zipcode'),
        at(site, 'marketing_optins'),
        // The postal code settings shape a field the site no longer shows.
        at(site, 'user_enrollment', 'postal_code_mask'),
      ]),
    );
  });

  it('warns at "All of the above" over fewer than two opt-ins and at standalone card texts on a site without the standalone form', () => {
    const site = load('sites/firstbank.json');
    Object.assign(settingsOf(site, 'marketing_optins'), {
      email: 'true',
      transactional: 'false',
      sms: 'false',
      online: 'false',
      cashback: 'false',
      all_of_the_above: 'true',
    });
    settingsOf(site, 'pan_capture').optInText = 'I agree';
    expect(checkSiteFixture(site, 'fixtures/sites/firstbank.json')).toEqual([]);
    expect(warningsOf(site)).toEqual(
      expect.arrayContaining([
        {
          code: 'no-effect',
          path: at(site, 'marketing_optins', 'all_of_the_above'),
          expected:
            'nothing here, as this setting has no effect: "All of the above" is shown only when two opt-ins or more are offered (marketing_optins.all_of_the_above)',
        },
        {
          code: 'no-effect',
          path: at(site, 'pan_capture', 'optInText'),
          expected:
            'nothing here, as this setting has no effect: optInText is shown only by the standalone card form of a site whose cms tenant is "vpp" (SPEC §2) (pan_capture.optInText)',
        },
      ]),
    );
    settingsOf(site, 'cms').tenant = 'vpp';
    expect(warningsOf(site).map((warning) => warning.path)).not.toContain(at(site, 'pan_capture', 'optInText'));
  });

  it('warns at a national id mask or regexp of a cpf or ssn site (SPEC §5: their own rules) and at a privacy policy URL without its display', () => {
    const site = load('sites/firstbank.json');
    settingsOf(site, 'user_enrollment').national_id_regexp = '^[0-9]{9}$';
    settingsOf(site, 'user_enrollment').national_id_mask = '000-00-0000';
    delete settingsOf(site, 'user_enrollment').privacy_policy_display;
    expect(checkSiteFixture(site, 'fixtures/sites/firstbank.json')).toEqual([]);
    const warnings = warningsOf(site);
    expect(warnings).toContainEqual({
      code: 'no-effect',
      path: at(site, 'user_enrollment', 'national_id_regexp'),
      expected:
        'nothing here, as this setting has no effect: a ssn national id is formatted and checked by the ssn rules (SPEC §5), never by national_id_regexp (user_enrollment.national_id_regexp)',
    });
    expect(warnings.map((warning) => warning.path)).toEqual(
      expect.arrayContaining([at(site, 'user_enrollment', 'national_id_mask'), at(site, 'user_enrollment', 'privacy_policy_url')]),
    );
  });

  it('warns that a ProfileOptional national id or password is asked nowhere (SPEC §5), and that dob settings need a dob field', () => {
    const site = load('sites/firstbank.json');
    settingsOf(site, 'user_site_profile').nationalId = '3';
    settingsOf(site, 'user_global_profile').dob = '2';
    const warnings = warningsOf(site);
    expect(warnings).toContainEqual({
      code: 'no-effect',
      path: at(site, 'user_site_profile', 'nationalId'),
      expected:
        'nothing here, as this setting has no effect: nationalId is never asked: registration leaves ProfileOptional out and edit-profile omits nationalId (SPEC §5) (user_site_profile.nationalId)',
    });
    expect(warnings.map((warning) => warning.path)).toEqual(
      expect.arrayContaining([at(site, 'user_enrollment', 'date_format'), at(site, 'user_enrollment', 'dob_min_age')]),
    );
  });
});
