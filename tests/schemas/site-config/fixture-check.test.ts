import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkFixtureText, checkSiteFixture, type FixtureMistake } from '../../../schemas/site-config/fixture-check';
import type { FeatureName, SiteConfig } from '../../../schemas/site-config/types';

// docs/decisions/0001-site-fixture-format.md: a wrong fixture fails with the file, the JSON path
// inside it and what was expected. Sites are discovered by listing the folder (DESIGN "Adding a site").
const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const SITE_FILES = readdirSync(`${FIXTURES}sites`).filter((name) => name.endsWith('.json'));
const FILE = 'fixtures/sites/firstbank.json';

function readFixture(relativePath: string): string {
  return readFileSync(`${FIXTURES}${relativePath}`, 'utf8');
}

function firstbank(): SiteConfig {
  return JSON.parse(readFixture('sites/firstbank.json')) as SiteConfig;
}

function indexOf(site: SiteConfig, name: FeatureName): number {
  const index = site.siteFeatureConfigurations.findIndex((feature) => feature.name === name);
  if (index < 0) throw new Error(`firstbank has no ${name}`);
  return index;
}

function settingsOf(site: SiteConfig, name: FeatureName): Record<string, unknown> {
  return site.siteFeatureConfigurations[indexOf(site, name)]!.featureConfig;
}

describe('the fixtures in fixtures/', () => {
  it('has at least ten sites', () => {
    expect(SITE_FILES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(SITE_FILES)('sites/%s follows the fixture format', (fileName) => {
    expect(checkFixtureText(readFixture(`sites/${fileName}`), `fixtures/sites/${fileName}`)).toEqual([]);
  });

  it('default-site.json follows the fixture format with site id "default" (SPEC §7 fallback)', () => {
    expect(checkFixtureText(readFixture('default-site.json'), 'fixtures/default-site.json')).toEqual([]);
    expect(JSON.parse(readFixture('default-site.json'))).toMatchObject({ siteId: 'default', name: 'Rewards Portal' });
  });
});

type BrokenCase = {
  mistake: string;
  breakIt: (site: SiteConfig & Record<string, unknown>) => (site: SiteConfig) => Omit<FixtureMistake, 'file'>;
};

// Each case breaks one thing in a copy of firstbank and names the one mistake it must produce.
const brokenCases: BrokenCase[] = [
  {
    mistake: 'level "7"',
    breakIt: (site) => {
      settingsOf(site, 'user_global_profile').dob = '7';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'user_global_profile')}].featureConfig.dob`,
        expected: 'a level code from "0" to "5" (user_global_profile.dob)',
        actual: '"7"',
      });
    },
  },
  {
    mistake: 'bin_length "abc"',
    breakIt: (site) => {
      settingsOf(site, 'user_enrollment').bin_length = 'abc';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'user_enrollment')}].featureConfig.bin_length`,
        expected: 'an integer from 4 to 19 as a string (user_enrollment.bin_length)',
        actual: '"abc"',
      });
    },
  },
  {
    mistake: 'bin_length "20" (out of bounds)',
    breakIt: (site) => {
      settingsOf(site, 'user_enrollment').bin_length = '20';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'user_enrollment')}].featureConfig.bin_length`,
        expected: 'an integer from 4 to 19 as a string (user_enrollment.bin_length)',
        actual: '"20"',
      });
    },
  },
  {
    mistake: 'a regexp that does not compile',
    breakIt: (site) => {
      settingsOf(site, 'user_enrollment').phone_regexp = '^([0-9]{3}';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'user_enrollment')}].featureConfig.phone_regexp`,
        expected: 'a regular expression that compiles (user_enrollment.phone_regexp)',
        actual: '"^([0-9]{3}": Invalid regular expression: /^([0-9]{3}/: Unterminated group',
      });
    },
  },
  {
    mistake: 'a mask with an unreadable character',
    breakIt: (site) => {
      settingsOf(site, 'user_enrollment').phone_mask = '(000) 000_0000';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'user_enrollment')}].featureConfig.phone_mask`,
        expected: 'a mask of 0 (digit), A (letter), * (letter or digit) and the literals space ( ) - . / + : (user_enrollment.phone_mask)',
        actual: '"(000) 000_0000", which has "_" at character 10',
      });
    },
  },
  {
    mistake: 'a connected_app name with a line break in it (ADR 0001: shown on redirect-sso as written)',
    breakIt: (site) => {
      settingsOf(site, 'site_auth_profile').connected_app = 'Smile\nBank';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'site_auth_profile')}].featureConfig.connected_app`,
        expected:
          'the name of the bank\'s sign-in app as people know it, e.g. "Smile": 1 to 40 characters, no line break or control character, no space at either end (site_auth_profile.connected_app)',
        actual: '"Smile\\nBank"',
      });
    },
  },
  {
    mistake: 'a mask with no slot',
    breakIt: (site) => {
      settingsOf(site, 'user_enrollment').postal_code_mask = '---';
      // The example is checked against the mask too; this case is about the mask alone.
      delete settingsOf(site, 'user_enrollment').postal_code_example;
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'user_enrollment')}].featureConfig.postal_code_mask`,
        expected: 'a mask with at least one 0, A or * slot (user_enrollment.postal_code_mask)',
        actual: '"---"',
      });
    },
  },
  {
    mistake: 'a privacy policy to accept with no link to it (SPEC §5 pp)',
    breakIt: (site) => {
      delete settingsOf(site, 'user_enrollment').privacy_policy_url;
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'user_enrollment')}].featureConfig.privacy_policy_url`,
        expected:
          'the absolute https URL of the site\'s privacy policy, which the registration form links to (privacy_policy_display is "A") (user_enrollment.privacy_policy_url)',
        actual: 'missing',
      });
    },
  },
  {
    mistake: 'a privacy policy link that is not https (a script URL)',
    breakIt: (site) => {
      settingsOf(site, 'user_enrollment').privacy_policy_url = 'javascript:alert(1)';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'user_enrollment')}].featureConfig.privacy_policy_url`,
        expected: 'an absolute https URL (user_enrollment.privacy_policy_url)',
        actual: '"javascript:alert(1)"',
      });
    },
  },
  {
    mistake: 'an unknown feature name',
    breakIt: (site) => {
      site.siteFeatureConfigurations.push({ name: 'loyalty_points' as FeatureName, featureConfig: { enabled: 'true' } });
      return (s) => ({
        path: `$.siteFeatureConfigurations[${s.siteFeatureConfigurations.length - 1}].name`,
        expected: 'a feature name',
        actual: '"loyalty_points"',
        code: 'unknown-feature',
        allowed: {
          of: 'feature names',
          values: [
            'pan_capture',
            'user_site_profile',
            'user_global_profile',
            'user_asset_profile',
            'user_enrollment',
            'marketing_optins',
            'vba',
            'site_auth_profile',
            'cms',
            'allow_delete_profile',
            'mobile_app',
            'site_locales',
            'site_brand',
          ],
        },
      });
    },
  },
  {
    mistake: 'an unknown key in a feature',
    breakIt: (site) => {
      settingsOf(site, 'cms').colour = 'blue';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'cms')}].featureConfig.colour`,
        expected: 'a key of cms (cms.colour)',
        actual: 'unknown key "colour"',
        code: 'unknown-key',
        allowed: { of: 'cms', values: ['tenant'] },
      });
    },
  },
  {
    mistake: 'an unknown top-level key',
    breakIt: (site) => {
      site.locale = 'en_us';
      return () => ({
        path: '$.locale',
        expected: 'a key of the site',
        actual: 'unknown key "locale"',
        code: 'unknown-key',
        allowed: { of: 'the site', values: ['$schema', 'name', 'siteId', 'theme', 'siteFeatureConfigurations'] },
      });
    },
  },
  {
    mistake: 'a non-string value',
    breakIt: (site) => {
      settingsOf(site, 'pan_capture').limit = 5;
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'pan_capture')}].featureConfig.limit`,
        expected: 'a positive integer as a string (pan_capture.limit)',
        actual: '5',
      });
    },
  },
  {
    mistake: 'a boolean written as a JSON boolean',
    breakIt: (site) => {
      settingsOf(site, 'allow_delete_profile').allow_delete_profile = false;
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'allow_delete_profile')}].featureConfig.allow_delete_profile`,
        expected: '"true" or "false" (allow_delete_profile.allow_delete_profile)',
        actual: 'false',
      });
    },
  },
  {
    mistake: 'an unknown theme (SPEC §3; ADR 0020)',
    breakIt: (site) => {
      site.theme = 'dark';
      return () => ({ path: '$.theme', expected: 'a theme: "classic" or "vpp" (fixtures/README.md "Themes and brands")', actual: '"dark"' });
    },
  },
  {
    mistake: 'a brand colour that is not a hex colour',
    breakIt: (site) => {
      settingsOf(site, 'site_brand').accent_color = 'gold';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'site_brand')}].featureConfig.accent_color`,
        expected: 'a CSS hex colour "#rgb" or "#rrggbb" (e.g. "#0b3d91"; no transparency, no colour names) (site_brand.accent_color)',
        actual: '"gold"',
      });
    },
  },
  {
    mistake: 'a brand colour that tries to end the declaration (CSS injection)',
    breakIt: (site) => {
      settingsOf(site, 'site_brand').primary_color = '#000;}body{display:none';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'site_brand')}].featureConfig.primary_color`,
        expected: 'a CSS hex colour "#rgb" or "#rrggbb" (e.g. "#0b3d91"; no transparency, no colour names) (site_brand.primary_color)',
        actual: '"#000;}body{display:none"',
      });
    },
  },
  {
    mistake: 'an accent colour too close to the primary for its text (WCAG AA)',
    breakIt: (site) => {
      settingsOf(site, 'site_brand').accent_color = '#3d6fc0';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'site_brand')}].featureConfig.accent_color`,
        expected: 'brand colours whose text contrast reaches WCAG AA (4.5:1) (site_brand.accent_color)',
        actual: 'primary_color text #0b3d91 on accent_color #3d6fc0: contrast 2.02:1, below the 4.5:1 of WCAG AA',
      });
    },
  },
  {
    mistake: 'a logo path that climbs out of the build',
    breakIt: (site) => {
      settingsOf(site, 'site_brand').logo = 'brands/../../gateway/config.svg';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'site_brand')}].featureConfig.logo`,
        expected:
          'a file of the app\'s public/ folder, e.g. "brands/firstbank.svg": letters, digits, "_", "-", "." and "/", ending in .svg, .png or .webp, without "..", "//" or a URL (site_brand.logo)',
        actual: '"brands/../../gateway/config.svg"',
      });
    },
  },
  {
    mistake: 'a logo on another origin',
    breakIt: (site) => {
      settingsOf(site, 'site_brand').logo = 'https://evil.example/logo.svg';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'site_brand')}].featureConfig.logo`,
        expected:
          'a file of the app\'s public/ folder, e.g. "brands/firstbank.svg": letters, digits, "_", "-", "." and "/", ending in .svg, .png or .webp, without "..", "//" or a URL (site_brand.logo)',
        actual: '"https://evil.example/logo.svg"',
      });
    },
  },
  {
    mistake: 'siteId different from the file name',
    breakIt: (site) => {
      site.siteId = 'secondbank';
      return () => ({ path: '$.siteId', expected: '"firstbank" (the file name without .json)', actual: '"secondbank"' });
    },
  },
  {
    mistake: 'a missing name',
    breakIt: (site) => {
      delete (site as Partial<SiteConfig>).name;
      return () => ({ path: '$.name', expected: 'a non-empty site name', actual: 'nothing' });
    },
  },
  {
    mistake: 'a duplicate feature',
    breakIt: (site) => {
      site.siteFeatureConfigurations.push({ name: 'cms', featureConfig: { tenant: 'vpp' } });
      return (s) => ({
        path: `$.siteFeatureConfigurations[${s.siteFeatureConfigurations.length - 1}].name`,
        expected: `each feature once (already at $.siteFeatureConfigurations[${indexOf(s, 'cms')}])`,
        actual: '"cms"',
      });
    },
  },
  {
    mistake: 'an updateAssetUrl without {{id}}',
    breakIt: (site) => {
      settingsOf(site, 'pan_capture').updateAssetUrl = 'user-attribute/user/assets/default';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'pan_capture')}].featureConfig.updateAssetUrl`,
        expected: 'a path under the gateway base containing {{id}}, e.g. "user-attribute/user/assets/{{id}}" (pan_capture.updateAssetUrl)',
        actual: '"user-attribute/user/assets/default"',
      });
    },
  },
  {
    mistake: 'a date_format with two separators',
    breakIt: (site) => {
      settingsOf(site, 'user_enrollment').date_format = 'MM/DD-YYYY';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'user_enrollment')}].featureConfig.date_format`,
        expected: 'YYYY, MM and DD in any order joined by one of "-", "/" or "." (e.g. "DD/MM/YYYY") (user_enrollment.date_format)',
        actual: '"MM/DD-YYYY"',
      });
    },
  },
  {
    mistake: 'an SSO issuer that is not an absolute URL',
    breakIt: (site) => {
      settingsOf(site, 'site_auth_profile').issuer_url = '/test-idp';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'site_auth_profile')}].featureConfig.issuer_url`,
        expected: 'an absolute http(s) URL (site_auth_profile.issuer_url)',
        actual: '"/test-idp"',
      });
    },
  },
  // §2 mobile deep link: the app's scheme and its Android store page (ADR 0001 mobile_app).
  ...(['firstbankrewards', 'firstbankrewards:', 'FirstBank://', 'https://', 'javascript://', 'first bank://'] as const).map((scheme): BrokenCase => ({
    mistake: `an app_scheme ${JSON.stringify(scheme)}`,
    breakIt: (site) => {
      settingsOf(site, 'mobile_app').app_scheme = scheme;
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'mobile_app')}].featureConfig.app_scheme`,
        expected:
          'an app scheme ending in "://": a lowercase letter, then lowercase letters, digits, "+", "-" or "." (e.g. "firstbankrewards://"), not http, https, javascript, vbscript, data, file, blob or about (mobile_app.app_scheme)',
        actual: JSON.stringify(scheme),
      });
    },
  })),
  ...(['http://play.google.com/store/apps/details?id=com.firstbank.rewards', 'play.google.com/store', '/store'] as const).map((url): BrokenCase => ({
    mistake: `an android_store_url ${JSON.stringify(url)}`,
    breakIt: (site) => {
      settingsOf(site, 'mobile_app').android_store_url = url;
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'mobile_app')}].featureConfig.android_store_url`,
        expected: 'an absolute https URL (mobile_app.android_store_url)',
        actual: JSON.stringify(url),
      });
    },
  })),
  // The locales a site is for (ADR 0001 site_locales): codes of the locale table, once each, never the pseudo-locale.
  ...(
    [
      [
        'ar-QA en_us',
        'locale codes like "ar_qa" separated by single spaces, the site\'s own first (e.g. "ar_qa en_us") (site_locales.locales)',
        '"ar-QA en_us"',
      ],
      [
        'en_us  es_co',
        'locale codes like "ar_qa" separated by single spaces, the site\'s own first (e.g. "ar_qa en_us") (site_locales.locales)',
        '"en_us  es_co"',
      ],
      ['en_us xx_yy', 'locales the portal serves, language_country as in en_us, pt_br, de_de, ar_qa, not the pseudo-locale (site_locales.locales)', '"xx_yy"'],
      [
        'en_xa',
        'locales the portal serves, language_country as in en_us, en_ca, en_gb, en_ie, en_au, en_nz, en_in, en_sg, not the pseudo-locale (site_locales.locales)',
        '"en_xa"',
      ],
      // An author writing Norwegian as no_no is shown the locales of that country.
      ['no_no en_us', 'locales the portal serves, language_country as in nb_no, not the pseudo-locale (site_locales.locales)', '"no_no"'],
      ['en_us es_co en_us', 'each locale once (site_locales.locales)', '"en_us"'],
    ] as const
  ).map(([locales, expected, actual]): BrokenCase => ({
    mistake: `site_locales ${JSON.stringify(locales)}`,
    breakIt: (site) => {
      settingsOf(site, 'site_locales').locales = locales;
      return (s) => ({ path: `$.siteFeatureConfigurations[${indexOf(s, 'site_locales')}].featureConfig.locales`, expected, actual });
    },
  })),
  {
    mistake: 'a dotted key that does not exist',
    breakIt: (site) => {
      settingsOf(site, 'user_site_profile')['address.country'] = '1';
      return (s) => ({
        path: `$.siteFeatureConfigurations[${indexOf(s, 'user_site_profile')}].featureConfig['address.country']`,
        expected: 'a key of user_site_profile (user_site_profile.address.country)',
        actual: 'unknown key "address.country"',
        code: 'unknown-key',
        allowed: { of: 'user_site_profile', values: expect.arrayContaining(['state', 'region', 'phone', 'address.city']) as string[] },
      });
    },
  },
];

describe('a broken copy of firstbank', () => {
  it.each(brokenCases)('$mistake gives one precise mistake', ({ breakIt }) => {
    const site = firstbank() as SiteConfig & Record<string, unknown>;
    const expectedMistake = breakIt(site)(site);
    expect(checkSiteFixture(site, FILE)).toEqual([{ file: FILE, ...expectedMistake }]);
  });

  it('refuses a white-on-primary pair below 4.5:1, naming the pair and its ratio (#777777 gives 4.47:1)', () => {
    const site = firstbank();
    settingsOf(site, 'site_brand').primary_color = '#777';
    settingsOf(site, 'site_brand').accent_color = '#000000';
    const at = `$.siteFeatureConfigurations[${indexOf(site, 'site_brand')}].featureConfig.primary_color`;
    expect(checkSiteFixture(site, FILE)).toEqual([
      {
        file: FILE,
        path: at,
        expected: 'brand colours whose text contrast reaches WCAG AA (4.5:1) (site_brand.primary_color)',
        actual: 'button text #ffffff on primary_color #777777 (and primary_color links on the white page): contrast 4.47:1, below the 4.5:1 of WCAG AA',
      },
    ]);
  });

  it("looks for the logo in the app's public/ folder when the caller can (sites:check does)", () => {
    const site = firstbank();
    settingsOf(site, 'site_brand').logo = 'brands/secondbank.svg';
    const asked: string[] = [];
    const publicFileExists = (path: string) => {
      asked.push(path);
      return path === 'brands/firstbank.svg';
    };
    expect(checkSiteFixture(site, FILE, { publicFileExists })).toEqual([
      {
        file: FILE,
        path: `$.siteFeatureConfigurations[${indexOf(site, 'site_brand')}].featureConfig.logo`,
        expected: "a file that exists under the app's public/ folder (site_brand.logo)",
        actual: '"brands/secondbank.svg": no file public/brands/secondbank.svg',
      },
    ]);
    expect(asked).toEqual(['brands/secondbank.svg']);
    expect(checkSiteFixture(firstbank(), FILE, { publicFileExists })).toEqual([]);
  });

  it('reports every mistake of a file, not just the first', () => {
    const site = firstbank();
    settingsOf(site, 'user_enrollment').bin_length = 'abc';
    settingsOf(site, 'user_global_profile').dob = '7';
    site.siteId = 'other';
    expect(checkSiteFixture(site, FILE).map((mistake) => mistake.path)).toEqual(
      expect.arrayContaining([
        `$.siteFeatureConfigurations[${indexOf(site, 'user_enrollment')}].featureConfig.bin_length`,
        `$.siteFeatureConfigurations[${indexOf(site, 'user_global_profile')}].featureConfig.dob`,
        '$.siteId',
      ]),
    );
  });

  it('accepts the file name as a path and checks only its base name', () => {
    expect(checkSiteFixture(firstbank(), '/somewhere/else/firstbank.json')).toEqual([]);
    expect(checkSiteFixture(firstbank(), 'C:\\fixtures\\sites\\firstbank.json')).toEqual([]);
  });
});

describe('checkFixtureText', () => {
  it.each([
    ['{\n  "name": "First",\n  "siteId": }\n', 'line 3, column 13', "Unexpected token '}'"],
    ['{\n  "name": "First",\n}', 'line 3, column 1', 'Expected double-quoted property name'],
    ['{\n  "name": "First"\n  "siteId": "firstbank"\n}', 'line 3, column 3', "Expected ',' or '}' after property value"],
    ['', 'line 1, column 1', 'Unexpected end of JSON input'],
  ])('reports text that is not JSON with its line and column: %j', (text, path, actual) => {
    expect(checkFixtureText(text, FILE)).toEqual([{ file: FILE, path, expected: 'valid JSON', actual }]);
  });

  it('checks JSON text against the format', () => {
    expect(checkFixtureText('{"name": "x", "siteId": "firstbank", "theme": "classic", "siteFeatureConfigurations": []}', FILE)).toEqual([]);
    expect(checkFixtureText('[]', FILE)).toEqual([{ file: FILE, path: '$', expected: expect.stringContaining('a site config') as string, actual: 'an array' }]);
  });
});
