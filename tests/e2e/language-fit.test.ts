import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/accessibility';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { REPO_ROOT, TEST_OUTPUT_DIR } from './support/paths';
import { browserTest, type PortalProcess } from './support/browser-test';
import { endsOn, routeOf } from './support/navigation';

// This file's gateway runs without the test hooks (GATEWAY_TEST_MODE), as a plain development start does.
browserTest.override('portalEnv', {});

/**
 * Language that fits (ADR 0013), in Chromium against the real gateway: a Spanish page whose locale
 * has no content file of its own reads the Spanish of a sibling (CLDR parents, not English); an
 * Arabic page shows counted texts in their Arabic form with Arabic digits; and a phone typed on it
 * keeps its digits left to right (SPEC §2 "Page language follows the locale").
 */
type Content = Record<string, Record<string, string>>;
const contentOf = (locale: string): Content => JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/content/${locale}.json`, 'utf8')) as Content;
const SPANISH = contentOf('es_co');
const ENGLISH = contentOf('en_us');
const ARABIC = contentOf('ar_qa');

function text(content: Content, group: string, key: string): string {
  const value = content[group]?.[key];
  if (value === undefined) throw new Error(`content has no ${group}.${key}`);
  return value;
}

let portal: PortalProcess;
let browser: Browser;
browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

async function open(path: string, width = 1024): Promise<{ page: Page; cspViolations: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const cspViolations = collectCspViolations(page);
  await page.goto(`${portal.baseUrl}${path}`);
  await endsOn(page, routeOf(page));
  return { page, cspViolations, close: () => context.close() };
}

describe('content falls back by language before English', () => {
  it.each(['es_mx', 'es_ar'])('sabana in %s (no content file of its own) shows the Spanish of es_co', async (locale) => {
    expect(() => readFileSync(`${REPO_ROOT}/fixtures/content/${locale}.json`)).toThrow();
    const { page, cspViolations, close } = await open(`/sabana/${locale}/account/login`);
    const spanishTitle = text(SPANISH, 'common', 'title.login');
    expect(spanishTitle).not.toBe(text(ENGLISH, 'common', 'title.login'));
    await expect.poll(() => page.textContent('h1')).toBe(spanishTitle);
    expect(await page.getAttribute('html', 'lang')).toBe(locale === 'es_mx' ? 'es-MX' : 'es-AR');
    expect(await page.getByLabel(text(SPANISH, 'form', 'label.password'), { exact: false }).count()).toBeGreaterThan(0);
    await page.locator('form button[type="submit"]').click();
    await expect.poll(() => page.locator('form .field__error').first().textContent()).toBe(text(SPANISH, 'form', 'required'));
    expect(cspViolations).toEqual([]);
    await saveScreenshot(page, `language-fit-sabana-${locale}-login`);
    await close();
  });
});

describe('an Arabic page (dohabank, ar_qa)', () => {
  it('types the phone 5512 3456 left to right, on the reading side of the field', async () => {
    const { page, cspViolations, close } = await open('/dohabank/ar_qa/account/registration');
    const phone = page.getByLabel(text(ARABIC, 'form', 'label.phone'), { exact: false });
    await expect.poll(() => phone.count()).toBe(1);
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await phone.click();
    await page.keyboard.type('55123456');
    expect(await phone.inputValue()).toBe('5512 3456');
    const style = await phone.evaluate((input) => ({ direction: getComputedStyle(input).direction, textAlign: getComputedStyle(input).textAlign }));
    expect(style).toEqual({ direction: 'ltr', textAlign: 'right' });
    // The name next to it follows the page.
    const firstName = page.getByLabel(text(ARABIC, 'form', 'label.first_name'), { exact: false });
    expect(await firstName.evaluate((input) => getComputedStyle(input).direction)).toBe('rtl');
    await saveScreenshot(page, 'language-fit-dohabank-ar_qa-phone-page');
    await phone.screenshot({ path: `${TEST_OUTPUT_DIR}/screenshots/language-fit-dohabank-ar_qa-phone.png` });
    await expectNoAxeViolations(page, 'dohabank ar_qa registration with a phone typed');
    expect(cspViolations).toEqual([]);
    await close();
  });

  it("says a too young age with the Arabic plural form in the page's Latin digits: 18 عامًا", async () => {
    const { page, cspViolations, close } = await open('/dohabank/ar_qa/account/registration');
    const year = page.locator('input[autocomplete="bday-year"]');
    await expect.poll(() => year.count()).toBe(1);
    await page.locator('input[autocomplete="bday-day"]').fill('01');
    await page.locator('input[autocomplete="bday-month"]').fill('01');
    await year.fill('2020');
    await page.getByLabel(text(ARABIC, 'form', 'label.first_name'), { exact: false }).focus();
    // 18 is "many" in Arabic (11–99), written 18 as every number of the page (schemas/locales/intl-format.ts).
    const expected = text(ARABIC, 'form', 'invalidAgeError.many').replace('{{count}}', '18');
    await expect.poll(() => page.getByText(expected).count()).toBe(1);
    expect(expected).toContain('18 عامًا');
    expect(cspViolations).toEqual([]);
    await saveScreenshot(page, 'language-fit-dohabank-ar_qa-age');
    await close();
  });
});
