import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import arQa from '../../fixtures/content/ar_qa.json';
import enUs from '../../fixtures/content/en_us.json';
import ptBr from '../../fixtures/content/pt_br.json';
import { expectNoAxeViolations } from './support/accessibility';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { signInForTest } from './support/test-session';

/**
 * DESIGN "every screen of every site passes axe-core with no violations": the sign-in and
 * registration screens of the US, Brazilian and Qatar sites, each in its language (ar_qa right to
 * left), blank, with their fields' errors shown and with a refused sign-in, checked with axe-core
 * against WCAG 2.2 A/AA under the app's strict CSP; and the cashback statement's empty state. The
 * card and profile screens are checked in cards.test.ts and profile.test.ts.
 */
type Locale = 'en_us' | 'pt_br' | 'ar_qa';
const CONTENT: Record<Locale, Record<string, Record<string, string>>> = { en_us: enUs, pt_br: ptBr, ar_qa: arQa };

function t(locale: Locale, group: string, key: string): string {
  const value = CONTENT[locale][group]?.[key];
  if (value === undefined) throw new Error(`no content ${locale} ${group}.${key}`);
  return value;
}

const SITES: { siteId: string; locale: Locale; email: string }[] = [
  { siteId: 'firstbank', locale: 'en_us', email: 'emily.carter@example.com' },
  { siteId: 'bancosol', locale: 'pt_br', email: 'ana.souza@example.com' },
  { siteId: 'dohabank', locale: 'ar_qa', email: 'mariam.alkuwari@example.com' },
];

let portal: PortalProcess;
let browser: Browser;

browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

const url = (siteId: string, locale: string, route: string) => `${portal.baseUrl}/${siteId}/${locale}/account/${route}`;
const submitForm = (page: Page) => page.locator('.site-form button[type="submit"]').first().click();

describe.each(SITES)('$siteId ($locale): sign-in and registration pass axe (WCAG 2.2 A/AA)', (site) => {
  it('sign-in: blank, with its fields required, and with a refused password', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    const response = await page.goto(url(site.siteId, site.locale, 'login-form'));
    // axe runs under the app's strict policy (no inline script, no eval), and trips none of it.
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response?.headers()['content-security-policy']).not.toContain('unsafe-eval');
    await page.locator('#root_username').waitFor();
    expect(await page.locator('html').getAttribute('dir')).toBe(site.locale === 'ar_qa' ? 'rtl' : 'ltr');
    await expectNoAxeViolations(page, `sign-in (${site.siteId})`);

    await submitForm(page);
    await expect.poll(() => page.locator('#root_username').getAttribute('aria-invalid')).toBe('true');
    await saveScreenshot(page, `a11y-login-required-${site.siteId}`);
    await expectNoAxeViolations(page, `sign-in with its fields required (${site.siteId})`);

    await page.locator('#root_username').fill(site.email);
    await page.locator('#root_password').fill('Not-the-password-1');
    await submitForm(page);
    await page.locator('main [role="alert"]').first().waitFor();
    await saveScreenshot(page, `a11y-login-refused-${site.siteId}`);
    await expectNoAxeViolations(page, `sign-in refused (${site.siteId})`);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('registration: blank and with its fields required', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    await page.goto(url(site.siteId, site.locale, 'registration'));
    await page.locator('#root_first_name').waitFor();
    await saveScreenshot(page, `a11y-registration-${site.siteId}`);
    await expectNoAxeViolations(page, `registration (${site.siteId})`);

    await submitForm(page);
    await expect.poll(() => page.locator('#root_first_name').getAttribute('aria-invalid')).toBe('true');
    await saveScreenshot(page, `a11y-registration-required-${site.siteId}`);
    await expectNoAxeViolations(page, `registration with its fields required (${site.siteId})`);
    expect(cspViolations).toEqual([]);
    await context.close();
  });
});

describe('the axe check itself', () => {
  it('fails on a page with violations, naming each rule, impact and element', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent(
      '<html lang="en"><head><title>Broken</title></head><body><main><h1>Broken</h1>' +
        '<input id="unnamed" type="text"><p id="faint" style="color:#b0b0b0;background:#fff">Faint text</p></main></body></html>',
    );
    const failure = await expectNoAxeViolations(page, 'a broken page').then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(failure).toContain('axe found 2 WCAG 2.2 A/AA violation(s) on "a broken page"');
    expect(failure).toMatch(/^ {2}color-contrast \[serious\] #faint: Elements must meet minimum color contrast ratio thresholds/m);
    expect(failure).toMatch(/^ {2}label \[critical\] #unnamed: Form elements must have labels/m);
    await context.close();
  });
});

describe('cashback statement', () => {
  it('the empty state (firstbank, a card holder with no cashback yet) passes axe', async () => {
    const context = await browser.newContext();
    await signInForTest(context, portal.baseUrl, 'casey.park@example.com', 'firstbank');
    const page = await context.newPage();
    await page.goto(url('firstbank', 'en_us', 'cashback-statement'));
    await page.getByText(t('en_us', 'profile', 'cashback.empty')).waitFor();
    await saveScreenshot(page, 'a11y-cashback-empty-firstbank');
    await expectNoAxeViolations(page, 'cashback statement, empty (firstbank)');
    await context.close();
  });
});
