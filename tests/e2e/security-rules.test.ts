import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import enUs from '../../fixtures/content/en_us.json';
import { expectNoAxeViolations } from './support/accessibility';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { endsOn } from './support/navigation';
import { browserTest, type PortalProcess } from './support/browser-test';
import { signInForTest } from './support/test-session';

/**
 * What a screen offers agrees with what the gateway allows (SPEC §2 password, mfa-setup,
 * delete-profile; ADR 0009, ADR 0015), in Chromium against the real gateway: an SSO site with MFA
 * "off" (unionbank) offers neither "Change password" nor two-step verification, and their routes
 * lead back to the profile; a classic site's delete-profile asks the password and a ticked box.
 */
const PROFILE_TEXTS = enUs.profile as Record<string, string>;
/** A demo user (fixtures/demo-users.json) signed in by the gateway's test hook. */
const LUKAS = { email: 'lukas.schneider@example.com', siteId: 'eurobank' };

describe('security rules that agree with each other, in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (siteId: string, route: string) => `${portal.baseUrl}/${siteId}/en_us/account/${route}`;

  async function profileOf(siteId: string): Promise<Page> {
    const context = await browser.newContext();
    await signInForTest(context, portal.baseUrl, LUKAS.email, siteId);
    const page = await context.newPage();
    await page.goto(url(siteId, 'profile'));
    await endsOn(page, 'profile');
    await page.getByRole('heading', { level: 2, name: PROFILE_TEXTS['links.title'] }).waitFor();
    return page;
  }

  it('unionbank (SSO, mfa "off"): no "Change password", no two-step row or link; their URLs lead to the profile', async () => {
    const page = await profileOf('unionbank');
    const csp = collectCspViolations(page);
    const links = page.getByRole('navigation', { name: PROFILE_TEXTS['links.title'] }).getByRole('link');
    await expect.poll(async () => (await links.allTextContents()).length).toBeGreaterThan(0);
    const names = await links.allTextContents();
    expect(names).not.toContain(PROFILE_TEXTS['link.password']);
    expect(names).not.toContain(PROFILE_TEXTS['link.mfa-setup']);
    expect(await page.getByText(PROFILE_TEXTS['mfa.label']!, { exact: true }).count()).toBe(0);
    await saveScreenshot(page, 'security-rules-sso-profile');
    for (const route of ['password', 'mfa-setup']) {
      await page.goto(url('unionbank', route));
      await endsOn(page, 'profile');
    }
    expect(csp).toEqual([]);
    await page.context().close();
  });

  it('eurobank (classic, mfa "optional"): both are offered, and delete-profile asks the password and a ticked box (axe clean)', async () => {
    const page = await profileOf(LUKAS.siteId);
    const names = await page.getByRole('navigation', { name: PROFILE_TEXTS['links.title'] }).getByRole('link').allTextContents();
    expect(names).toEqual(expect.arrayContaining([PROFILE_TEXTS['link.password'], PROFILE_TEXTS['link.mfa-setup']]));
    await page.getByRole('link', { name: PROFILE_TEXTS['link.delete-profile'] }).click();
    await endsOn(page, 'delete-profile');
    await page.getByLabel(/^Current password/).waitFor();
    await page.getByRole('checkbox', { name: /I understand that my account/ }).waitFor();
    await expectNoAxeViolations(page, 'delete-profile with its proof of presence');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await expect.poll(() => page.getByLabel(/^Current password/).getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page, 'delete-profile with its field errors');
    await saveScreenshot(page, 'security-rules-delete-profile-errors');
    await page.context().close();
  });
});
