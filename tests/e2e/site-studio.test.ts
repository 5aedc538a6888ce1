import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicFileIn } from '../../gateway/site-files/site-file-check';
import { readSettingHelp } from '../../gateway/features/site-studio/setting-help';
import { createStudioServer } from '../../gateway/features/site-studio/studio-server';
import { launchChromium } from './support/browser';
import { E2E_DIST_DIR, REPO_ROOT, TEST_OUTPUT_DIR } from './support/paths';

const run = promisify(execFile);

/**
 * The site studio walked as a new author would (docs/decisions/0027-site-studio.md): a site from the template, a
 * Portuguese postal code whose regexp the check refuses, the verdict at the setting, the fix, the previews with the
 * simulated values, the save with its diff into a folder of the test's own, and `sites:check` on the saved file.
 */
describe('the site studio in Chromium', () => {
  let studio: FastifyInstance;
  let baseUrl: string;
  let sitesDir: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    sitesDir = mkdtempSync(join(tmpdir(), 'studio-e2e-sites-'));
    studio = await createStudioServer({
      sitesDir,
      bundledSitesDir: resolve(REPO_ROOT, 'fixtures/sites'),
      contentDir: resolve(REPO_ROOT, 'fixtures/content'),
      publicFileExists: publicFileIn(resolve(REPO_ROOT, 'public')),
      help: readSettingHelp(resolve(REPO_ROOT, 'docs/decisions/0001-site-fixture-format.md')),
      now: () => new Date(),
      distDir: E2E_DIST_DIR,
    });
    baseUrl = await studio.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });
  afterAll(async () => {
    await browser.close();
    await studio.close();
    rmSync(sitesDir, { recursive: true, force: true });
  });

  const group = (name: string) => page.getByRole('group', { name, exact: true });
  const verdict = () => page.getByRole('status').filter({ hasText: 'sites:check' });

  it('makes a Portuguese site from the template: verdict at the regexp, fix, previews, diff, save; sites:check passes the file', async () => {
    await page.goto(`${baseUrl}/studio`);
    await expect.poll(() => verdict().textContent(), { timeout: 20_000 }).toContain('passes');

    await group('The site').getByRole('textbox', { name: 'siteId', exact: true }).fill('lisboa');
    await group('The site').getByRole('textbox', { name: 'name', exact: true }).fill('Lisboa Rewards');
    await group('site_locales').getByRole('textbox', { name: 'locales', exact: true }).fill('pt_br en_us');
    const enrollment = group('user_enrollment');
    await enrollment.getByRole('textbox', { name: 'postal_code_mask', exact: true }).fill('0000-000');
    await enrollment.getByRole('textbox', { name: 'postal_code_example', exact: true }).fill('1000-001');
    // Five digits then three: no value fills the 4+3 mask and this regexp.
    await enrollment.getByRole('textbox', { name: 'postal_code_regexp', exact: true }).fill('^\\d{5}-\\d{3}$');
    await expect.poll(() => verdict().textContent(), { timeout: 15_000 }).toMatch(/1 mistake/);
    // The verdict sits under the setting it is about.
    await expect.poll(() => enrollment.locator('.field--invalid').allTextContents()).toEqual([expect.stringMatching(/^postal_code_regexp.*Expected/s)]);
    mkdirSync(TEST_OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: `${TEST_OUTPUT_DIR}/site-studio-1280-verdict.png`, fullPage: false });
    await enrollment.locator('.field--invalid').screenshot({ path: `${TEST_OUTPUT_DIR}/site-studio-1280-verdict-field.png` });

    await enrollment.getByRole('textbox', { name: 'postal_code_regexp', exact: true }).fill('^\\d{4}-\\d{3}$');
    await expect.poll(() => verdict().textContent(), { timeout: 15_000 }).toContain('passes');
    await expect.poll(() => page.getByLabel('Site file (JSON)').inputValue()).toContain('"postal_code_regexp": "^\\\\d{4}-\\\\d{3}$"');

    // The previews, one per locale, typed with the simulation's values: the postal code as the holder sees it.
    await page.getByRole('button', { name: 'Type the simulated values' }).click();
    for (const locale of ['pt_br', 'en_us']) {
      const zipcode = page.getByRole('region', { name: `registration in ${locale}` }).locator('input[id$="zipcode"]');
      await expect.poll(() => zipcode.inputValue()).toMatch(/^\d{4}-\d{3}$/);
    }
    // Each preview is a 390 px phone; the studio itself still works at that width.
    const preview = page.getByRole('region', { name: 'registration in pt_br' });
    expect((await preview.boundingBox())?.width).toBe(390);
    await preview.screenshot({ path: `${TEST_OUTPUT_DIR}/site-studio-preview-390-pt_br.png` });
    // The card forms, drawn by the portal's card widgets in each locale: add-pan at registration, then edit-pan's.
    await page.getByRole('tab', { name: 'card forms' }).click();
    const cards = page.getByRole('region', { name: 'card forms in pt_br' });
    await expect.poll(() => cards.getByRole('textbox').count()).toBe(2);
    await cards.getByRole('textbox').first().fill('4111 1111 1111 1111');
    await cards.getByRole('button').first().click();
    await expect.poll(() => cards.getByRole('status').last().textContent()).toMatch(/accepts this card number at registration/);
    await cards.screenshot({ path: `${TEST_OUTPUT_DIR}/site-studio-preview-390-cards-pt_br.png` });
    await page.getByRole('tab', { name: 'registration' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${TEST_OUTPUT_DIR}/site-studio-390.png`, fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });

    // A broken JSON view: a message where it broke, the form keeps the last site, and nothing is lost.
    const json = page.getByLabel('Site file (JSON)');
    const good = await json.inputValue();
    await json.fill(good.replace('"theme": "classic",', '"theme": "classic"'));
    await expect.poll(() => page.locator('#studio-json-error').textContent()).toMatch(/line \d+, column \d+/);
    // Above the text, where the author looks first, not under a text taller than the window.
    const shown = await page.locator('#studio-json-error').boundingBox();
    const textBox = await json.boundingBox();
    expect(shown !== null && textBox !== null && shown.y + shown.height <= textBox.y).toBe(true);
    await expect.poll(() => group('The site').getByRole('textbox', { name: 'siteId', exact: true }).inputValue()).toBe('lisboa');
    await json.fill(good);
    await expect.poll(() => verdict().textContent(), { timeout: 15_000 }).toContain('passes');

    await page.getByRole('button', { name: 'Show the diff' }).click();
    await expect.poll(() => page.getByLabel('Diff').textContent()).toContain('+   "siteId": "lisboa",');
    await page.getByRole('region', { name: 'Save' }).screenshot({ path: `${TEST_OUTPUT_DIR}/site-studio-1280-diff.png` });
    await page.getByRole('button', { name: 'Save fixtures/sites/lisboa.json' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).textContent()).toBe('Saved fixtures/sites/lisboa.json.');

    const saved = join(sitesDir, 'lisboa.json');
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toMatchObject({ $schema: '../../schemas/site-config/site-fixture.schema.json', siteId: 'lisboa' });
    const { stdout } = await run(process.execPath, ['--import', 'tsx', resolve(REPO_ROOT, 'gateway/cli/sites-check.ts'), saved], { cwd: REPO_ROOT });
    expect(stdout).toMatch(/sites:check: 1 files, 0 mistakes/);

    // Changed on disk since it was saved here: the next save is refused, the other change kept.
    const otherChange = readFileSync(saved, 'utf8').replace('Lisboa Rewards', 'Lisboa Rewards (edited elsewhere)');
    writeFileSync(saved, otherChange);
    await group('The site').getByRole('textbox', { name: 'name', exact: true }).fill('Lisboa Rewards Club');
    await expect.poll(() => verdict().textContent(), { timeout: 15_000 }).toContain('passes');
    await page.getByRole('button', { name: 'Show the diff' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'changed on disk' }).textContent()).toMatch(/nothing was written/);
    expect(readFileSync(saved, 'utf8')).toBe(otherChange);
  });
});
