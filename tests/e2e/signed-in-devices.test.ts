import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import arQa from '../../fixtures/content/ar_qa.json';
import enUs from '../../fixtures/content/en_us.json';
import { expectNoAxeViolations } from './support/accessibility';
import { saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { endsOn } from './support/navigation';
import { newPasscode, outboxIds, totpCode } from './support/sign-in-helpers';
import { signInForTest } from './support/test-session';

/**
 * Signed-in devices in Chromium against the real gateway (ADR 0025 "Sessions the holder can see"), at a phone's
 * 390 px: one person signs in on two browsers (a desktop Chromium and an Android phone's), sees both from the first,
 * signs the phone out, and the phone is signed out at its next load; then "Sign out everywhere else" behind its
 * confirmation, which also ends the desktop's trust. Also the Arabic page, right to left. Each state is checked with axe and kept as a screenshot.
 */
const EMILY = { email: 'emily.carter@example.com', password: 'Firstbank#2025', siteId: 'firstbank' };
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const PHONE_VIEWPORT = { width: 390, height: 844 };
const en = (group: 'common' | 'profile', key: string): string => (enUs[group] as Record<string, string>)[key] ?? `no content ${key}`;
const ar = (group: 'common' | 'profile' | 'signIn', key: string): string => (arQa[group] as Record<string, string>)[key] ?? `no content ${key}`;

describe('signed-in devices in Chromium against the gateway (ADR 0025)', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (siteId: string, locale: string, route: string) => `${portal.baseUrl}/${siteId}/${locale}/account/${route}`;

  /** The sign-in form, then the passcode firstbank mails (read from the development outbox), trusting the device or not. */
  async function signIn(context: BrowserContext, page: Page, options: { trust?: boolean } = {}): Promise<void> {
    await page.goto(url(EMILY.siteId, 'en_us', 'login-form'));
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    const seen = await outboxIds(context.request, portal.baseUrl, EMILY.email);
    await page.getByLabel(/^Email/).fill(EMILY.email);
    await page.getByLabel(/^Password/).fill(EMILY.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await endsOn(page, 'login-otp');
    await page.getByLabel(/^One-time passcode/).fill(await newPasscode(context.request, portal.baseUrl, EMILY.email, seen));
    if (options.trust === true) await page.getByRole('checkbox', { name: /Trust this device/ }).check();
    await page.getByRole('button', { name: 'Verify' }).click();
    await endsOn(page, 'profile');
  }

  const sessionsRegion = (page: Page) => page.getByRole('region', { name: en('profile', 'devices.sessionsTitle') });
  const deviceNames = (page: Page) => sessionsRegion(page).getByRole('heading', { level: 3 }).allTextContents();
  /** A session's card in the list of sessions (a trusted device of the same name has its own, in its own list). */
  const deviceCard = (page: Page, name: string) =>
    sessionsRegion(page).locator('li.device', { has: page.getByRole('heading', { level: 3, name, exact: true }) });

  it('signs in on a desktop and a phone, sees both, signs the phone out (it is signed out at its next load), then signs out everywhere else', async () => {
    const desktop = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const phone = await browser.newContext({ viewport: PHONE_VIEWPORT, userAgent: ANDROID_CHROME });
    const desktopPage = await desktop.newPage();
    const phonePage = await phone.newPage();
    await signIn(desktop, desktopPage, { trust: true });
    await signIn(phone, phonePage);

    // From the profile's links, as a person gets there.
    await desktopPage
      .getByRole('navigation', { name: en('profile', 'links.title') })
      .getByRole('link', { name: en('profile', 'link.signed-in-devices'), exact: true })
      .click();
    await endsOn(desktopPage, 'signed-in-devices');
    await expect.poll(() => deviceNames(desktopPage)).toHaveLength(2);
    // Headless Chromium on Linux is this device, listed first; the phone by its User-Agent.
    expect(await deviceNames(desktopPage)).toEqual(['Chrome on Linux', 'Chrome on Android']);
    const here = deviceCard(desktopPage, 'Chrome on Linux');
    await here.getByText(en('profile', 'devices.thisDevice')).waitFor();
    expect(await here.getByRole('button').count()).toBe(0);
    // The desktop trusted itself to skip the passcode: listed, and marked as this device.
    const trusted = desktopPage.getByRole('region', { name: en('profile', 'devices.trustedTitle') });
    expect(await trusted.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Chrome on Linux']);
    await trusted.getByText(en('profile', 'devices.thisDevice')).waitFor();
    const other = deviceCard(desktopPage, 'Chrome on Android');
    expect(await other.locator('dd').allTextContents()).toEqual([
      'FirstBank Rewards',
      '127.0.*.*', // the loopback network: the address is shown masked
      expect.any(String),
      expect.any(String),
    ]);
    // Nothing at 390 px is wider than the page.
    expect(await desktopPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    await expectNoAxeViolations(desktopPage, 'signed-in devices, two devices');
    await saveScreenshot(desktopPage, 'signed-in-devices-390-two-devices');

    await other.getByRole('button', { name: en('profile', 'devices.signOut') }).click();
    await desktopPage.getByText('Chrome on Android has been signed out.').waitFor();
    await expect.poll(() => deviceNames(desktopPage)).toEqual(['Chrome on Linux']);
    await desktopPage.getByText(en('profile', 'devices.onlyThis')).waitFor();
    await expectNoAxeViolations(desktopPage, 'signed-in devices, the phone signed out');
    await saveScreenshot(desktopPage, 'signed-in-devices-390-phone-signed-out');

    // The phone's next load finds its session ended: back to sign-in.
    await phonePage.reload();
    await endsOn(phonePage, 'login-form');
    await saveScreenshot(phonePage, 'signed-in-devices-390-phone-after-reload');

    // Signed in on the phone again, then signed out everywhere else from the desktop, behind the confirmation.
    await signIn(phone, phonePage);
    await desktopPage.reload();
    await endsOn(desktopPage, 'signed-in-devices');
    await expect.poll(() => deviceNames(desktopPage)).toHaveLength(2);
    await desktopPage.getByRole('button', { name: en('profile', 'devices.everywhere') }).click();
    const dialog = desktopPage.getByRole('dialog', { name: en('profile', 'devices.everywhereTitle') });
    await dialog.waitFor();
    await expectNoAxeViolations(desktopPage, 'signed-in devices, sign out everywhere else?');
    await saveScreenshot(desktopPage, 'signed-in-devices-390-confirm-everywhere');
    await dialog.getByRole('button', { name: en('profile', 'devices.everywhereConfirm') }).click();
    await desktopPage.getByText(en('profile', 'devices.everywhereDone')).waitFor();
    await expect.poll(() => deviceNames(desktopPage)).toEqual(['Chrome on Linux']);
    // Every device's trust ended with it, this one's too.
    await expect.poll(() => desktopPage.getByRole('region', { name: en('profile', 'devices.trustedTitle') }).count()).toBe(0);
    await saveScreenshot(desktopPage, 'signed-in-devices-390-signed-out-everywhere-else');

    await phonePage.reload();
    await endsOn(phonePage, 'login-form');
    await desktopPage.reload();
    await endsOn(desktopPage, 'signed-in-devices');
    await desktop.close();
    await phone.close();
  });

  it('reads right to left in Arabic (dohabank), at 390 px, with no axe violation', async () => {
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, userAgent: ANDROID_CHROME });
    await signInForTest(context, portal.baseUrl, 'mariam.alkuwari@example.com', 'dohabank');
    const page = await context.newPage();
    // dohabank requires an authenticator before any account screen (route guard mfaRequired).
    await page.goto(url('dohabank', 'ar_qa', 'signed-in-devices'));
    await endsOn(page, 'mfa-setup');
    await page.getByRole('button', { name: ar('signIn', 'mfa.start') }).click();
    const secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/ /g, '');
    await page.locator('#root_passcode').fill(totpCode(secret, Date.now() / 1000));
    await page.getByRole('button', { name: ar('signIn', 'mfa.enroll') }).click();
    await page.getByRole('button', { name: ar('signIn', 'mfa.codes.saved') }).click();

    await page.goto(url('dohabank', 'ar_qa', 'signed-in-devices'));
    await endsOn(page, 'signed-in-devices');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(ar('common', 'title.signed-in-devices'));
    await page.getByRole('heading', { level: 3, name: 'Chrome على Android' }).waitFor();
    await page.getByText(ar('profile', 'devices.thisDevice')).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    await expectNoAxeViolations(page, 'signed-in devices (ar_qa)');
    await saveScreenshot(page, 'signed-in-devices-390-ar_qa');
    await context.close();
  });
});
