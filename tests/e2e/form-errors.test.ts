import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import enUs from '../../fixtures/content/en_us.json';
import esCo from '../../fixtures/content/es_co.json';
import { expectNoAxeViolations } from './support/accessibility';
import { browserTest, type PortalProcess } from './support/browser-test';
import { endsOn } from './support/navigation';

/**
 * SPEC §5 errors that say what is expected, in Chromium against the real gateway: a submit shows
 * every problem at once, next to its field, and focus goes to the first; a formatted field shows
 * the format it expects (mask or the author's example) and its error names it; letters are
 * upper-cased as typed where the site says so.
 */

/** An example or a mask as the texts show it: isolated left to right (it keeps its order on an Arabic page). */
const isolated = (value: string) => `\u2066${value}\u2069`;
describe('form errors say what is expected (SPEC §5)', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  async function openRegistration(siteId: string, locale: string): Promise<Page> {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${portal.baseUrl}/${siteId}/${locale}/account/registration`);
    await endsOn(page, 'registration');
    return page;
  }

  const errorOf = (page: Page, id: string) => page.locator(`#${id}__error`);

  it('firstbank: a bad phone and empty required fields are all shown at once after submit, focus on the first', async () => {
    const page = await openRegistration('firstbank', 'en_us');
    await page.locator('#root_phone').fill('123');
    await page.locator('.site-form button[type="submit"]').first().click();

    const required = enUs.form.required;
    for (const id of ['root_first_name', 'root_last_name', 'root_email', 'root_password', 'root_confirm_password', 'root_nationalId']) {
      await expect.poll(() => errorOf(page, id).textContent()).toBe(required);
      expect(await page.locator(`#${id}`).getAttribute('aria-invalid')).toBe('true');
    }
    expect(await errorOf(page, 'root_phone').textContent()).not.toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_first_name');
    // The masked phone's hint (the site's example) stays visible next to its error, and both describe the input.
    expect(await page.locator('#root_phone__help').textContent()).toBe(enUs.form['hint.example'].replace('{{example}}', isolated('(212) 555-0143')));
    expect(await page.locator('#root_phone').getAttribute('aria-describedby')).toBe('root_phone__help root_phone__error');
    await expectNoAxeViolations(page, 'registration with every error shown');
    await page.context().close();
  });

  it("sabana: the regexp-only national id shows the author's example, and its error names it", async () => {
    const page = await openRegistration('sabana', 'es_co');
    const hint = page.locator('#root_nationalId__help');
    expect(await hint.isVisible()).toBe(true);
    expect(await hint.textContent()).toBe(esCo.form['hint.example'].replace('{{example}}', isolated('1023456789')));
    await page.locator('#root_nationalId').fill('0123');
    await page.locator('.site-form button[type="submit"]').first().click();
    await expect.poll(() => errorOf(page, 'root_nationalId').textContent()).toBe(esCo.form['expected.example'].replace('{{example}}', isolated('1023456789')));
    expect(await page.locator('#root_nationalId').getAttribute('aria-describedby')).toBe('root_nationalId__help root_nationalId__error');
    await expectNoAxeViolations(page, 'sabana registration with the national id hint and error');
    await page.context().close();
  });

  it('northbank: the postal code is upper-cased as it is typed (postal_code_uppercase)', async () => {
    const page = await openRegistration('northbank', 'en_us');
    const zipcode = page.locator('#root_address_zipcode');
    await zipcode.click();
    await zipcode.pressSequentially('k1a');
    expect(await zipcode.inputValue()).toBe('K1A');
    await zipcode.pressSequentially('0b1');
    expect(await zipcode.inputValue()).toBe('K1A 0B1');
    expect(await page.locator('#root_address_zipcode__help').textContent()).toBe(enUs.form['hint.example'].replace('{{example}}', isolated('K1A 0B1')));
    await page.context().close();
  });
});
