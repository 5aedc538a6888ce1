import { readdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import type { FormName } from '../../schemas/forms/form-names';
import { listSiteFixtures } from '../support/site-fixtures';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { REPO_ROOT } from './support/paths';
import { browserTest, type PortalProcess } from './support/browser-test';

// The gallery is served only with SITE_GALLERY on; this file's gateway runs without the test hooks.
browserTest.override('portalEnv', { SITE_GALLERY: 'true' });

// The site gallery (README "Architecture"): every fixture's forms render in Chromium with the right fields,
// masks and messages; a form works under a CSP without unsafe-eval; the gallery shows every site.
describe('the site gallery in Chromium, under the strict CSP', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[];

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    cspViolations = collectCspViolations(page);
  });

  it('lists every site found in fixtures/sites', async () => {
    await page.goto(`${portal.baseUrl}/gallery`);
    const expected = readdirSync(`${REPO_ROOT}/fixtures/sites`)
      .map((name) => name.replace(/\.json$/, ''))
      .sort();
    await expect.poll(() => page.locator('.gallery__sites .gallery__site-id').allTextContents()).toEqual(expected);
  });

  const forms: FormName[] = ['registration', 'edit-profile'];
  it.each(listSiteFixtures().map((site) => [site.siteId, site] as const))(
    '%s: registration and edit-profile render every field of the schema',
    async (siteId, site) => {
      for (const form of forms) {
        await page.goto(`${portal.baseUrl}/gallery/${siteId}?form=${form}&locale=en_us`);
        await page.locator('.site-form').waitFor();
        const order = buildFormSchema(site, 'en_us', form).uiSchema['ui:order'] as string[];
        for (const field of order) {
          // Every widget puts the field's exact id on its first focusable element, or a group's container.
          await expect
            .poll(() => page.locator(`[id="root_${field}"], [id^="root_${field}_"]`).count(), { message: `${siteId} ${form} ${field}` })
            .toBeGreaterThan(0);
        }
        if (form === 'registration') await saveScreenshot(page, `gallery-${siteId}-registration`);
      }
      expect(cspViolations).toEqual([]);
    },
  );

  it('formats a masked field as typed and shows the content message after leaving a field (bancosol, pt_br)', async () => {
    await page.goto(`${portal.baseUrl}/gallery/bancosol?form=registration&locale=pt_br`);
    const phone = page.locator('#root_phone');
    await phone.click();
    await phone.pressSequentially('11987654321');
    expect(await phone.inputValue()).toBe('(11) 98765-4321');

    const email = page.locator('#root_email');
    await email.fill('not-an-email');
    expect(await page.locator('#root_email__error').count()).toBe(0);
    await email.press('Tab');
    await expect.poll(() => page.locator('#root_email__error').textContent()).toBeTruthy();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
  });

  it('on submit with errors focuses the first invalid field in screen order', async () => {
    await page.goto(`${portal.baseUrl}/gallery/firstbank?form=registration&locale=en_us`);
    await page.locator('.site-form').waitFor();
    await page.locator('.site-form button[type="submit"]').click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('root_first_name');
    await saveScreenshot(page, 'gallery-firstbank-registration-errors');
  });

  it('asks the gateway for its verdict on what the browser accepted', async () => {
    await page.goto(`${portal.baseUrl}/gallery/firstbank?form=recovery&locale=en_us`);
    await page.locator('#root_email').fill('ana@example.com');
    await page.locator('.site-form button[type="submit"]').click();
    await expect.poll(() => page.locator('.gallery__verdict').textContent()).toContain('Gateway: valid');
    expect(cspViolations).toEqual([]);
  });
});
