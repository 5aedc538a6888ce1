import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { REPO_ROOT } from './support/paths';
import { browserTest, type PortalProcess } from './support/browser-test';

// This file's gateway runs without the test hooks (GATEWAY_TEST_MODE), as a plain development start does.
browserTest.override('portalEnv', {});

/**
 * The login and registration pages in four locales, in Chromium against the real
 * gateway. SPEC §1 (multi-language, date display), §2 (page language follows the locale), §5 (date
 * of birth in the site's date_format order), §7 (content, bundled default texts when the call fails).
 */
type Content = Record<string, Record<string, string>>;
const contentOf = (locale: string): Content => JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/content/${locale}.json`, 'utf8')) as Content;
const ENGLISH = contentOf('en_us');

function text(content: Content, group: string, key: string): string {
  const value = content[group]?.[key];
  if (value === undefined) throw new Error(`content has no ${group}.${key}`);
  return value;
}

/** The site's date_format as the order of the date-of-birth parts (SPEC §5). */
function dobOrder(siteId: string): ('dd' | 'mm' | 'yyyy')[] {
  const site = JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/sites/${siteId}.json`, 'utf8')) as {
    siteFeatureConfigurations: { name: string; featureConfig: Record<string, string> }[];
  };
  const format = site.siteFeatureConfigurations.find((feature) => feature.name === 'user_enrollment')?.featureConfig.date_format ?? 'YYYY-MM-DD';
  return format.split(/[-/.]/).map((part) => part.toLowerCase() as 'dd' | 'mm' | 'yyyy');
}

interface LocaleCase {
  siteId: string;
  locale: string;
  lang: string;
  dir: 'ltr' | 'rtl';
  /** Whether the site asks the date of birth at registration (harbourbank keeps it for the profile: ProfileOptional, SPEC §5). */
  dobAtRegistration: boolean;
}

const CASES: LocaleCase[] = [
  { siteId: 'firstbank', locale: 'en_us', lang: 'en-US', dir: 'ltr', dobAtRegistration: true },
  { siteId: 'bancosol', locale: 'pt_br', lang: 'pt-BR', dir: 'ltr', dobAtRegistration: true },
  { siteId: 'dohabank', locale: 'ar_qa', lang: 'ar-QA', dir: 'rtl', dobAtRegistration: true },
  { siteId: 'harbourbank', locale: 'zh_hk', lang: 'zh-HK', dir: 'ltr', dobAtRegistration: false },
];

let portal: PortalProcess;
let browser: Browser;
browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

async function open(path: string, prepare: (page: Page) => Promise<void> = async () => undefined) {
  const context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
  const page = await context.newPage();
  const cspViolations = collectCspViolations(page);
  await prepare(page);
  await page.goto(`${portal.baseUrl}${path}`);
  return { context, page, cspViolations };
}

/** Where a box sits: left and right edges in CSS pixels. */
async function edges(page: Page, selector: string): Promise<{ left: number; right: number }> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not on the page`);
  return { left: box.x, right: box.x + box.width };
}

describe.each(CASES)('$siteId in $locale', ({ siteId, locale, lang, dir, dobAtRegistration }) => {
  const content = contentOf(locale);

  it(`login: lang ${lang}, dir ${dir}, texts from the ${locale} content`, async () => {
    const { context, page, cspViolations } = await open(`/${siteId}/${locale}/account/login`);
    await expect.poll(() => page.textContent('h1')).toBe(text(content, 'common', 'title.login'));
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.getAttribute('html', 'dir')).toBe(dir);
    const username = page.getByLabel(text(content, 'form', 'label.username'), { exact: false });
    await expect.poll(() => username.count()).toBeGreaterThan(0);
    expect(await page.getByLabel(text(content, 'form', 'label.password'), { exact: false }).count()).toBeGreaterThan(0);
    if (locale !== 'en_us') expect(text(content, 'common', 'title.login')).not.toBe(text(ENGLISH, 'common', 'title.login'));

    // Right to left mirrors the form: a field's label starts where its input starts, on the reading side.
    const label = await edges(page, 'form label');
    const input = await edges(page, 'form input[type="email"], form input[type="text"]');
    if (dir === 'rtl') expect(Math.abs(label.right - input.right)).toBeLessThanOrEqual(2);
    else expect(Math.abs(label.left - input.left)).toBeLessThanOrEqual(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await saveScreenshot(page, `locales-${siteId}-${locale}-login`);

    // An empty submit: the field errors are in the locale, tied to their input, on the reading side under the field.
    await page.locator('form button[type="submit"]').click();
    const fieldError = page.locator('form .field__error').first();
    await expect.poll(() => fieldError.count()).toBe(1);
    expect(await fieldError.textContent()).toBe(text(content, 'form', 'required'));
    const errorId = await fieldError.getAttribute('id');
    expect(await page.locator('form input[aria-invalid="true"]').first().getAttribute('aria-describedby')).toContain(errorId);
    const error = await edges(page, 'form .field__error');
    if (dir === 'rtl') expect(Math.abs(error.right - input.right)).toBeLessThanOrEqual(2);
    else expect(Math.abs(error.left - input.left)).toBeLessThanOrEqual(2);
    expect(cspViolations).toEqual([]);
    await saveScreenshot(page, `locales-${siteId}-${locale}-login-errors`);
    await context.close();
  });

  it('registration: the date of birth in the site order with the locale part names, texts from the locale', async () => {
    const { context, page, cspViolations } = await open(`/${siteId}/${locale}/account/registration`);
    await expect.poll(() => page.textContent('h1')).toBe(text(content, 'common', 'title.registration'));
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.getAttribute('html', 'dir')).toBe(dir);
    expect(await page.getByLabel(text(content, 'form', 'label.email'), { exact: false }).count()).toBeGreaterThan(0);

    const dob = page.getByRole('group', { name: text(content, 'form', 'label.dob') });
    if (dobAtRegistration) {
      await expect.poll(() => dob.count()).toBe(1);
      const partLabels = await dob.locator('label').allTextContents();
      expect(partLabels).toEqual(dobOrder(siteId).map((part) => text(content, 'form', `label.dob.${part}`)));
      // The parts read as the site writes a date, in the reading direction: the first part is on the right in Arabic.
      const parts = await dob.locator('input').evaluateAll((inputs) => inputs.map((input) => input.getBoundingClientRect().x));
      const reading = [...parts].sort((a, b) => (dir === 'rtl' ? b - a : a - b));
      expect(parts).toEqual(reading);
      // Digits typed on an Arabic keyboard land as Latin digits (ADR 0013).
      if (dir === 'rtl') {
        const year = dob.locator('input[autocomplete="bday-year"]');
        await year.fill('١٩٩٠');
        expect(await year.inputValue()).toBe('1990');
      }
    } else {
      expect(await dob.count()).toBe(0);
    }

    const submit = await edges(page, 'form button[type="submit"]');
    const form = await edges(page, 'form');
    // The submit button sits where reading starts: the right edge of the form in Arabic, the left one otherwise.
    if (dir === 'rtl') expect(Math.abs(form.right - submit.right)).toBeLessThanOrEqual(2);
    else expect(Math.abs(submit.left - form.left)).toBeLessThanOrEqual(2);
    expect(cspViolations).toEqual([]);
    await saveScreenshot(page, `locales-${siteId}-${locale}-registration`);
    await context.close();
  });
});

// SPEC §7/§8: "failure uses bundled default texts", "content fetch failures fall back silently".
describe('a failing content call', () => {
  it.each([
    ['bancosol', 'pt_br', 'pt-BR', 'ltr'],
    ['dohabank', 'ar_qa', 'ar-QA', 'rtl'],
  ])('%s/%s shows the bundled en_us texts, keeps the page language and direction', async (siteId, locale, lang, dir) => {
    const contentCalls: string[] = [];
    const path = `/${siteId}/${locale}/account/login`;
    const { context, page } = await open(path, async (page) => {
      // The page as the gateway sends one it leaves to the browser (a render that failed or ran out of time, ADR 0024),
      // so the browser asks for the texts itself: the server's page would carry them.
      await page.route(`${portal.baseUrl}${path}`, async (route) => route.fulfill({ response: await route.fetch({ url: `${portal.baseUrl}/index.html` }) }));
      await page.route('**/bin/aem/rest?**', async (route) => {
        contentCalls.push(route.request().url());
        await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'INTERNAL', message: 'content service down' }) });
      });
    });
    await expect.poll(() => page.textContent('h1')).toBe(text(ENGLISH, 'common', 'title.login'));
    expect(contentCalls.length).toBeGreaterThan(0);
    // SPEC §8 "content fetch failures fall back silently": no global alert.
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByLabel(text(ENGLISH, 'form', 'label.username'), { exact: false }).count()).toBeGreaterThan(0);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.getAttribute('html', 'dir')).toBe(dir);
    await saveScreenshot(page, `locales-${siteId}-${locale}-content-failed`);
    await context.close();
  });
});
