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

function sitesCheck(...files: string[]): { status: number | null; stdout: string } {
  const run = spawnSync('npx', ['tsx', 'gateway/cli/sites-check.ts', ...files], { cwd: REPO_ROOT, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout };
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('sites:check', () => {
  it('passes the fixtures of the repository (every site plus default-site.json, bin-ranges.json, the cashback statements and the content)', () => {
    const { status, stdout } = sitesCheck();
    expect(stdout.trim()).toBe(`sites:check: ${SITE_COUNT + 2 + CASHBACK_COUNT + CONTENT_COUNT} files, 0 mistakes`);
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

  it("refuses an unknown theme, a faint brand colour and a logo missing from public/ (ADR 0020)", () => {
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
});
