import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import enUs from '../../fixtures/content/en_us.json';
import { expectNoAxeViolations } from './support/accessibility';
import { saveScreenshot } from './support/browser';
import { endsOn, routeOf } from './support/navigation';
import { browserTest, type PortalProcess } from './support/browser-test';
import { signInForTest } from './support/test-session';

/**
 * SPEC §2 notification alerts in Chromium against the real gateway, at phone width: the
 * profile-saved notice is announced (a status), can be dismissed, and is gone once the holder
 * moves to another page; the standalone form's card-added banner (SPEC §2, vpp tenant) shows on
 * /profile once and is gone after the next navigation. Moves use the page's own links.
 */
const texts = enUs as Record<string, Record<string, string>>;
const SAVED = texts.profile?.['edit.saved'] ?? '';
const DISMISS = texts.common?.['notice.dismiss'] ?? '';

let portal: PortalProcess;
let browser: Browser;

browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

async function signedInPhone(email: string, siteId: string, locale: string, route: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await signInForTest(context, portal.baseUrl, email, siteId);
  const page = await context.newPage();
  await page.goto(`${portal.baseUrl}/${siteId}/${locale}/account/${route}`);
  await endsOn(page, route);
  return { context, page };
}

async function saveProfile(page: Page, lastName: string): Promise<void> {
  await page.getByRole('link', { name: texts.profile?.['link.edit-profile'] }).click();
  await endsOn(page, 'edit-profile');
  await page.locator('#root_last_name').fill(lastName);
  await page.getByRole('button', { name: texts.profile?.['edit.submit'] }).click();
  await endsOn(page, 'profile');
}

describe('notices (SPEC §2 notification alerts)', () => {
  it('profile saved: announced, dismissed by its close button, and gone after moving to another page', async () => {
    const { context, page } = await signedInPhone('emily.carter@example.com', 'firstbank', 'en_us', 'profile');

    await saveProfile(page, 'Noticed');
    const notice = page.getByRole('status').filter({ hasText: SAVED });
    await notice.waitFor();
    await saveScreenshot(page, 'notices-profile-saved-390');
    await expectNoAxeViolations(page, 'profile with the saved notice at 390 px');
    const close = notice.getByRole('button', { name: DISMISS });
    await close.click();
    expect(await page.getByText(SAVED).count()).toBe(0);
    // Focus stays in the page: on its heading, not lost to the document.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');

    await saveProfile(page, 'Noticed again');
    await page.getByText(SAVED).waitFor();
    await page.getByRole('link', { name: texts.profile?.['link.cashback-statement'] }).click();
    await endsOn(page, 'cashback-statement');
    expect(await page.getByText(SAVED).count()).toBe(0);
    await page.goBack();
    await endsOn(page, 'profile');
    expect(await page.getByText(SAVED).count()).toBe(0);
    await context.close();
  });

  it('card-added from the standalone form shows on /profile once and is gone after the next navigation', async () => {
    const { context, page } = await signedInPhone('oliver.bennett@example.com', 'vppcards', 'en_gb', 'edit-pan');
    await page.locator('input[name="pan"]').fill('4012888888881881');
    await page.getByLabel('I agree to the Terms and Conditions and confirm this card is mine.').check();
    await page.getByRole('button', { name: 'Add card' }).click();
    await endsOn(page, 'profile');
    const banner = page.getByRole('status').filter({ hasText: 'Your card has been added.' });
    await banner.waitFor();
    await saveScreenshot(page, 'notices-card-added-390');
    await expectNoAxeViolations(page, 'profile with the card-added banner at 390 px');

    await page.getByRole('link', { name: texts.profile?.['link.edit-profile'] }).click();
    await endsOn(page, 'edit-profile');
    expect(await page.getByText('Your card has been added.').count()).toBe(0);
    await page.goBack();
    await endsOn(page, 'profile');
    expect(routeOf(page)).toBe('profile');
    expect(await page.getByText('Your card has been added.').count()).toBe(0);
    await context.close();
  });
});
