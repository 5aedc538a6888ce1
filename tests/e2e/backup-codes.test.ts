import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/accessibility';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { endsOn } from './support/navigation';
import { browserTest, type PortalProcess } from './support/browser-test';
import { advanceGatewayClock, totpCode } from './support/sign-in-helpers';
import { signInForTest } from './support/test-session';

/**
 * Backup codes in Chromium against the real gateway and database
 * (docs/decisions/0021-backup-codes-and-account-notices.md; SPEC §2 mfa-setup, login-otp): enrol an
 * authenticator, see the ten codes once, sign out, and sign back in with a code in place of the lost
 * phone; told how many are left and offered to set two-step up again.
 */
/** promotions_en_us: login_otp "none", so after enrolment the only second step is the authenticator's. */
const JORDAN = { email: 'jordan.lee@example.com', password: 'Promo^Deals42', siteId: 'promotions_en_us' };
const CODE_SHAPE = /^[A-Z2-7]{5}-[A-Z2-7]{5}$/;

describe('backup codes in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (route: string) => `${portal.baseUrl}/${JORDAN.siteId}/en_us/account/${route}`;

  async function signInWithPassword(page: Page): Promise<void> {
    await page.goto(url('login-form'));
    await page.getByLabel(/^Email/).fill(JORDAN.email);
    await page.getByLabel(/^Password/).fill(JORDAN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await endsOn(page, 'login-otp');
  }

  it('enrolment shows ten codes once (copy, download, "saved"); a lost phone signs in with one, once, and is told how many are left', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await signInForTest(context, portal.baseUrl, JORDAN.email, JORDAN.siteId);
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    await page.goto(url('mfa-setup'));
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/ /g, '');
    await page.getByLabel(/^Passcode/).fill(totpCode(secret, Date.now() / 1000));
    await page.getByRole('button', { name: 'Turn on two-step verification' }).click();

    await page.getByRole('heading', { name: 'Your backup codes' }).waitFor();
    const codes = (await page.getByTestId('backup-codes').locator('code').allTextContents()).map((code) => code.trim());
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(CODE_SHAPE);
    const download = page.getByRole('link', { name: 'Download as text' });
    expect(await download.getAttribute('download')).toBe('backup-codes.txt');
    expect(decodeURIComponent((await download.getAttribute('href')) ?? '')).toContain(codes.join('\n'));
    // Fits a phone: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page, 'mfa-setup, backup codes shown');
    await saveScreenshot(page, 'backup-codes-shown-390');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText(/^Two-step verification is on\./).waitFor();
    expect(await page.getByTestId('backup-codes').count()).toBe(0);

    // The phone is lost: sign out, then in with a backup code.
    await page.goto(url('logout'));
    await endsOn(page, 'login-form');
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInWithPassword(page);
    await page.getByRole('button', { name: 'Lost your phone? Use a backup code' }).click();
    await page.getByLabel('Backup code').fill('not a code');
    await page.getByRole('button', { name: 'Sign in with the backup code' }).click();
    await page.getByText('Enter a backup code of 10 letters and digits, like ABCDE-FGH23.').waitFor();
    expect(await page.getByLabel('Backup code').getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page, 'login-otp, backup code refused as typed');
    await page.getByLabel('Backup code').fill(codes[0]!.toLowerCase());
    await saveScreenshot(page, 'backup-codes-sign-in-1280');
    await page.getByRole('button', { name: 'Sign in with the backup code' }).click();

    await endsOn(page, 'mfa-setup');
    await page.getByText(/^You signed in with a backup code\. Backup codes left: 9\./).waitFor();
    await page.getByTestId('backup-codes-left').getByText('Backup codes left: 9').waitFor();
    await page.getByRole('button', { name: 'Turn off with a backup code' }).waitFor();
    await expectNoAxeViolations(page, 'mfa-setup after a backup code');
    await saveScreenshot(page, 'backup-codes-used-1280');
    await page.getByRole('link', { name: 'Continue to my profile' }).click();
    await endsOn(page, 'profile');

    // The same code a second time is refused; the person stays on the step.
    await page.goto(url('logout'));
    await endsOn(page, 'login-form');
    await signInWithPassword(page);
    await page.getByRole('button', { name: 'Lost your phone? Use a backup code' }).click();
    await page.getByLabel('Backup code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Sign in with the backup code' }).click();
    await page
      .getByRole('alert')
      .getByText(/You have 4 attempts left/)
      .waitFor();
    expect(page.url()).toContain('/login-otp');

    // The authenticator still works (a new 30-second step: the enrolment used the first).
    await advanceGatewayClock(context, portal.baseUrl, 30);
    await page.getByRole('button', { name: 'Use a code from my app instead' }).click();
    await page.getByLabel(/^One-time passcode/).fill(totpCode(secret, Date.now() / 1000 + 30));
    await page.getByRole('button', { name: 'Verify' }).click();
    await endsOn(page, 'profile');
    expect(cspViolations).toEqual([]);
    await context.close();
  });
});
