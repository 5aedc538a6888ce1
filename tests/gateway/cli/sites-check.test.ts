import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../schemas/site-config/types';

// `npm run sites:check` (docs/decisions/0001-site-fixture-format.md, "Consequences"): one line per
// mistake with file and JSON path, a summary, exit code 1 on any mistake.
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SITE_COUNT = readdirSync(join(REPO_ROOT, 'fixtures/sites')).filter((name) => name.endsWith('.json')).length;
const CASHBACK_COUNT = readdirSync(join(REPO_ROOT, 'fixtures/cashback')).filter((name) => name.endsWith('.json')).length;
const CONTENT_COUNT = readdirSync(join(REPO_ROOT, 'fixtures/content')).filter((name) => name.endsWith('.json')).length;
const scratch = mkdtempSync(join(tmpdir(), 'sites-check-'));
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The mistakes and the summary; warnings (settings without effect, ADR 0001) are left out, with the
 * summary's warning count, by all but the tests about warnings, so each test sees only its own mistake.
 */
function sitesCheck(...files: string[]): { status: number | null; stdout: string; output: string } {
  const run = spawnSync('npx', ['tsx', 'gateway/cli/sites-check.ts', ...files], { cwd: REPO_ROOT, encoding: 'utf8' });
  const stdout = run.stdout
    .split('\n')
    .filter((line) => !line.startsWith('warning: ') && !line.startsWith('allowed '))
    .map((line) => line.replace(/^(sites:check: .*), \d+ warnings$/, '$1'))
    .join('\n');
  return { status: run.status, stdout, output: run.stdout };
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('sites:check', () => {
  it('passes the fixtures of the repository (every site plus default-site.json, bin-ranges.json, the cashback statements and the content)', () => {
    const { status, stdout, output } = sitesCheck();
    expect(stdout.trim()).toBe(`sites:check: ${SITE_COUNT + 2 + CASHBACK_COUNT + CONTENT_COUNT} files, 0 mistakes`);
    // Warnings never fail the check, and each names a file and a JSON path.
    expect(
      output
        .trim()
        .split('\n')
        .slice(0, -1)
        .every((line) => /^warning: fixtures\/\S+\.json: \$\S* /.test(line)),
    ).toBe(true);
    expect(status).toBe(0);
  });

  // ADR 0013 "Counted texts": a counted text without its `other` form, or with a form its language never selects.
  it('refuses a content file whose counted text lacks its other form or has a form the language does not use', () => {
    const content = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/content/de_de.json'), 'utf8')) as Record<string, Record<string, string>>;
    const signIn = content.signIn ?? {};
    delete signIn['error.otpInvalid.other'];
    signIn['error.deviceLocked.few'] = 'Noch ein paar Minuten.';
    mkdirSync(join(scratch, 'content'), { recursive: true });
    const broken = join(scratch, 'content', 'de_de.json');
    writeFileSync(broken, JSON.stringify(content, null, 2));

    const { status, stdout } = sitesCheck(broken);
    expect(stdout.split('\n')).toEqual([
      `${broken}: $['signIn']['error.deviceLocked.few']: expected a plural form of de-DE: one, other, got .few`,
      `${broken}: $['signIn']['error.otpInvalid.other']: expected the "other" form every counted text needs, got only .one`,
      'sites:check: 1 files, 2 mistakes',
      '',
    ]);
    expect(status).toBe(1);
  });

  // ADR 0001 `cashback_enabled`: a programme without cashback offers no statement, so a demo statement of one never shows.
  it('refuses a demo cashback statement of a site without cashback (tejobank)', () => {
    const statement = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/cashback/emily-carter.json'), 'utf8')) as Record<string, unknown>;
    mkdirSync(join(scratch, 'cashback'), { recursive: true });
    const broken = join(scratch, 'cashback', 'tejobank-person.json');
    writeFileSync(broken, JSON.stringify({ ...statement, siteId: 'tejobank' }, null, 2));

    const { status, stdout } = sitesCheck(broken);
    expect(stdout.split('\n')).toEqual([
      `${broken}: $.siteId: expected a site whose pan_capture.cashback_enabled is "true": a programme without cashback shows no statement, got tejobank`,
      'sites:check: 1 files, 1 mistakes',
      '',
    ]);
    expect(status).toBe(1);
  });

  it('fails on a broken copy and names the file and the path inside it', () => {
    const site = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/sites/firstbank.json'), 'utf8')) as SiteConfig;
    const enrollment = site.siteFeatureConfigurations.findIndex((feature) => feature.name === 'user_enrollment');
    site.siteFeatureConfigurations[enrollment]!.featureConfig.bin_length = 'abc';
    const broken = join(scratch, 'firstbank.json');
    writeFileSync(broken, JSON.stringify(site, null, 2));

    const { status, stdout } = sitesCheck(broken);
    expect(stdout.split('\n')).toEqual([
      `${broken}: $.siteFeatureConfigurations[${enrollment}].featureConfig.bin_length: ` +
        'expected an integer from 4 to 19 as a string (user_enrollment.bin_length), got "abc"',
      'sites:check: 1 files, 1 mistakes',
      '',
    ]);
    expect(status).toBe(1);
  });

  it('refuses a mobile_app whose scheme is not "name://" and whose store page is not https (SPEC §2 mobile deep link)', () => {
    const site = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/sites/firstbank.json'), 'utf8')) as SiteConfig;
    const app = site.siteFeatureConfigurations.findIndex((feature) => feature.name === 'mobile_app');
    site.siteFeatureConfigurations[app]!.featureConfig = { app_scheme: 'firstbankrewards:', android_store_url: 'http://play.google.com/store' };
    const broken = join(scratch, 'firstbank.json');
    writeFileSync(broken, JSON.stringify(site, null, 2));

    const { status, stdout } = sitesCheck(broken);
    expect(stdout.split('\n')).toEqual([
      `${broken}: $.siteFeatureConfigurations[${app}].featureConfig.app_scheme: expected an app scheme ending in "://": a lowercase letter, ` +
        'then lowercase letters, digits, "+", "-" or "." (e.g. "firstbankrewards://"), not http, https, javascript, vbscript, data, file, blob or about ' +
        '(mobile_app.app_scheme), got "firstbankrewards:"',
      `${broken}: $.siteFeatureConfigurations[${app}].featureConfig.android_store_url: expected an absolute https URL (mobile_app.android_store_url), got "http://play.google.com/store"`,
      'sites:check: 1 files, 2 mistakes',
      '',
    ]);
    expect(status).toBe(1);
  });

  it('refuses an unknown theme, a faint brand colour and a logo missing from public/ (ADR 0020)', () => {
    const site = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/sites/firstbank.json'), 'utf8')) as SiteConfig;
    const brand = site.siteFeatureConfigurations.findIndex((feature) => feature.name === 'site_brand');
    site.theme = 'neon';
    site.siteFeatureConfigurations[brand]!.featureConfig = { primary_color: '#3d8bfd', accent_color: '#0b3d91', logo: 'brands/secondbank.svg' };
    const broken = join(scratch, 'firstbank.json');
    writeFileSync(broken, JSON.stringify(site, null, 2));

    const { status, stdout } = sitesCheck(broken);
    const at = `${broken}: $.siteFeatureConfigurations[${brand}].featureConfig`;
    expect(stdout.split('\n')).toEqual([
      `${broken}: $.theme: expected a theme: "classic" or "vpp" (fixtures/README.md "Themes and brands"), got "neon"`,
      `${at}.primary_color: expected brand colours whose text contrast reaches WCAG AA (4.5:1) (site_brand.primary_color), ` +
        'got button text #ffffff on primary_color #3d8bfd (and primary_color links on the white page): contrast 3.32:1, below the 4.5:1 of WCAG AA',
      `${at}.accent_color: expected brand colours whose text contrast reaches WCAG AA (4.5:1) (site_brand.accent_color), ` +
        'got primary_color text #3d8bfd on accent_color #0b3d91: contrast 3.01:1, below the 4.5:1 of WCAG AA',
      `${at}.logo: expected a file that exists under the app's public/ folder (site_brand.logo), got "brands/secondbank.svg": no file public/brands/secondbank.svg`,
      'sites:check: 1 files, 4 mistakes',
      '',
    ]);
    expect(status).toBe(1);
  });

  it('fails on text that is not JSON and on a file it cannot read', () => {
    const notJson = join(scratch, 'northbank.json');
    writeFileSync(notJson, '{\n  "name": "Northbank",\n  "siteId": northbank\n}\n');
    const missing = join(scratch, 'nowhere.json');

    const { status, stdout } = sitesCheck(notJson, missing);
    expect(stdout).toContain(`${notJson}: line 3, column 14: expected valid JSON, got Unexpected token 'o'`);
    expect(stdout).toContain(`${missing}: $: expected a readable JSON file, got ENOENT`);
    expect(stdout).toContain('sites:check: 2 files, 2 mistakes');
    expect(status).toBe(1);
  });

  // ADR 0001 "Rules beyond the format": what breaks a site at run time is refused; what does nothing is a warning.
  it('refuses pan_capture without its asset URLs and opt-ins without their level, hints the feature a key belongs to, and lists allowed keys once', () => {
    const site = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/sites/firstbank.json'), 'utf8')) as SiteConfig;
    const featureAt = (name: string) => site.siteFeatureConfigurations.findIndex((feature) => feature.name === name);
    const cards = site.siteFeatureConfigurations[featureAt('pan_capture')]!.featureConfig;
    delete cards.assetsUrl;
    delete cards.assetsValidationUrl;
    delete cards.updateAssetUrl;
    const attributes = site.siteFeatureConfigurations[featureAt('user_site_profile')]!.featureConfig;
    delete attributes.marketing_opt_ins;
    attributes.first_name = '0';
    attributes.phnoe = '1';
    const broken = join(scratch, 'firstbank.json');
    writeFileSync(broken, JSON.stringify(site, null, 2));

    const { status, output } = sitesCheck(broken);
    const lines = output.trim().split('\n');
    const cardsAt = `${broken}: $.siteFeatureConfigurations[${featureAt('pan_capture')}].featureConfig`;
    const attributesAt = `${broken}: $.siteFeatureConfigurations[${featureAt('user_site_profile')}].featureConfig`;
    expect(lines).toEqual(
      expect.arrayContaining([
        `${attributesAt}.first_name: expected a key of user_site_profile; did you mean \`user_global_profile\`? "first_name" is a setting of user_global_profile (user_site_profile.first_name), got unknown key "first_name"`,
        `${attributesAt}.phnoe: expected a key of user_site_profile; did you mean "phone"? (user_site_profile.phnoe), got unknown key "phnoe"`,
        `${cardsAt}.assetsUrl: expected pan_capture.assetsUrl: the card screens need assetsUrl, assetsValidationUrl and updateAssetUrl, or they fail with "Missing required options for FirstBankPanModule" (SPEC §8) (pan_capture.assetsUrl), got missing`,
        `${broken}: $.siteFeatureConfigurations[${featureAt('marketing_optins')}].featureConfig: expected a "marketing_opt_ins" level in user_site_profile (e.g. "1" Optional): without it the offered opt-ins are never shown (marketing_optins), got email, transactional, online, cashback offered, no marketing_opt_ins level`,
      ]),
    );
    expect(lines.filter((line) => line.includes('.featureConfig.assets') || line.includes('.featureConfig.updateAssetUrl'))).toHaveLength(3);
    // Two unknown keys in one feature: its allowed keys are printed once, after the messages.
    const allowed = lines.filter((line) => line.startsWith('allowed '));
    expect(allowed).toEqual([expect.stringMatching(/^allowed keys of user_site_profile: state, region, phone, .*customerOriginDetails$/) as string]);
    expect(lines.filter((line) => line.includes('state, region, phone'))).toHaveLength(1);
    expect(lines.at(-1)).toBe('sites:check: 1 files, 6 mistakes');
    expect(status).toBe(1);
  });

  it('passes a file whose only findings are settings without effect, warning at each with file and JSON path', () => {
    const site = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/sites/northbank.json'), 'utf8')) as SiteConfig;
    const featureAt = (name: string) => site.siteFeatureConfigurations.findIndex((feature) => feature.name === name);
    site.siteFeatureConfigurations[featureAt('user_site_profile')]!.featureConfig.campaigns = '0';
    site.siteFeatureConfigurations[featureAt('vba')]!.featureConfig.enabled = 'false';
    const checked = join(scratch, 'northbank.json');
    writeFileSync(checked, JSON.stringify(site, null, 2));

    const { status, output } = sitesCheck(checked);
    expect(output.trim().split('\n')).toEqual([
      `warning: ${checked}: $.siteFeatureConfigurations[${featureAt('user_site_profile')}].featureConfig.campaigns: expected no level: campaigns is never shown, it is a data-only attribute no form asks for (ADR 0001 "Data-only attributes"), so a Mandatory level has no effect (user_site_profile.campaigns), got Mandatory`,
      `warning: ${checked}: $.siteFeatureConfigurations[${featureAt('vba')}].featureConfig.compromised_password_check: expected nothing here, as this setting has no effect: compromised_password_check is read only when vba.enabled is not "false" (vba.compromised_password_check)`,
      'sites:check: 1 files, 0 mistakes, 2 warnings',
    ]);
    expect(status).toBe(0);
  });

  // ADR 0001 "Simulation", ADR 0005 "Masks and regexps": the forms are filled with values made from the site's own mask and regexp.
  describe('simulates the site: a postal code under mask 0000-000', () => {
    const withPostalCode = (settings: Record<string, string>): { file: string; at: string } => {
      const site = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/sites/firstbank.json'), 'utf8')) as SiteConfig;
      const enrollment = site.siteFeatureConfigurations.findIndex((feature) => feature.name === 'user_enrollment');
      // firstbank's own example is a five-digit ZIP code: each case gives the example it is about, if any.
      delete site.siteFeatureConfigurations[enrollment]!.featureConfig.postal_code_example;
      Object.assign(site.siteFeatureConfigurations[enrollment]!.featureConfig, settings);
      const profile = site.siteFeatureConfigurations.find((feature) => feature.name === 'user_site_profile')!;
      Object.assign(profile.featureConfig, { address: '0', 'address.zipcode': '0' });
      mkdirSync(join(scratch, 'simulated'), { recursive: true });
      const file = join(scratch, 'simulated', 'firstbank.json');
      writeFileSync(file, JSON.stringify(site, null, 2));
      return { file, at: `$.siteFeatureConfigurations[${enrollment}].featureConfig` };
    };

    it('passes the regexp written as the holder sees the value (^\\d{4}-\\d{3}$), its example included', () => {
      const { file } = withPostalCode({ postal_code_mask: '0000-000', postal_code_regexp: '^\\d{4}-\\d{3}$', postal_code_example: '1000-001' });
      const { status, stdout } = sitesCheck(file);
      expect(stdout.split('\n')).toEqual(['sites:check: 1 files, 0 mistakes', '']);
      expect(status).toBe(0);
    });

    it('refuses a regexp no value under the mask can meet (^\\d{5}$), naming the file, the JSON path, the values tried and why', () => {
      const { file, at } = withPostalCode({ postal_code_mask: '0000-000', postal_code_regexp: '^\\d{5}$' });
      const { status, stdout } = sitesCheck(file);
      const lines = stdout.split('\n');
      expect(lines.slice(1)).toEqual(['sites:check: 1 files, 1 mistakes', '']);
      expect(lines[0]).toMatch(
        new RegExp(
          `^${escapeRegExp(`${file}: ${at}.postal_code_regexp: expected settings the postalCode field address.zipcode can be filled under (registration, en_us;`)}.*` +
            escapeRegExp('got none of 300 values drawn from its mask and regexp passes the validators the browser and the gateway run: ') +
            '"[0-9]{5}" \\(drawn from the regexp\\): it does not fill the 7 slots of the mask "0000-000"; ' +
            '"[0-9]{7}" \\(drawn from the mask\\): the regexp \\^\\\\d\\{5\\}\\$ matches it neither as shown \\("[0-9]{4}-[0-9]{3}"\\) nor bare \\("[0-9]{7}"\\)$',
        ),
      );
      expect(status).toBe(1);
    });
  });
});
