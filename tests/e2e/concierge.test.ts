import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import arQa from '../../fixtures/content/ar_qa.json';
import { expectNoAxeViolations } from './support/accessibility';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { newPasscode, outboxIds } from './support/sign-in-helpers';
import { signInForTest } from './support/test-session';
import { cookieValue, endsOn } from './support/navigation';

/**
 * The concierge (docs/decisions/0014-concierge.md) in Chromium against the real
 * gateway and database: the demo agent signs in through the sign-in form (password, then firstbank's
 * e-mailed passcode from the dev outbox), finds Emily Carter, changes one of her opt-ins, the audit row
 * is read back from the gateway, logout clears the support-details and user-type cookies (SPEC §4), and
 * a card holder is refused the concierge screen and calls (SPEC §6).
 */
const AGENT = { email: 'riley.morgan@example.com', password: 'Concierge!Desk5' };
const HOLDER = 'emily.carter@example.com';
const SITE = 'firstbank';

interface AuditEntry {
  userId: string;
  siteId: string;
  action: string;
  attributeKeys: string[];
  correlationId: string;
}

describe('concierge in Chromium against the gateway (SPEC §4, §6, §7, §9; ADR 0014)', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (route: string, locale = 'en_us') => `${portal.baseUrl}/${SITE}/${locale}/account/${route}`;

  it('an agent signs in, finds Emily, changes an opt-in for her (audited), and logout clears both concierge cookies', async () => {
    const context = await browser.newContext();
    const seen = await outboxIds(context.request, portal.baseUrl, AGENT.email);
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    await page.goto(url('login-form'));
    await page.getByLabel(/^Email/).fill(AGENT.email);
    await page.getByLabel(/^Password/).fill(AGENT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await endsOn(page, 'login-otp');
    await page.getByLabel(/^One-time passcode/).fill(await newPasscode(context.request, portal.baseUrl, AGENT.email, seen));
    await page.getByRole('button', { name: 'Verify' }).click();

    // Signed in, acting for nobody yet: the profile guard hands the agent to the concierge screen.
    await endsOn(page, 'concierge');
    expect(await page.locator('main h1').textContent()).toBe('Support agent');
    expect(await cookieValue(context, portal.baseUrl, 'gmap_user_type')).toBe('CONCIERGE');
    expect(await cookieValue(context, portal.baseUrl, 'gmap_support_details')).toBeUndefined();
    await saveScreenshot(page, 'concierge-find');
    await expectNoAxeViolations(page, 'concierge find');

    const field = page.getByLabel("Card holder's e-mail address");
    await field.fill('nobody@example.com');
    await page.getByRole('button', { name: 'Act for this card holder' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('No card holder has this e-mail address on this site.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await saveScreenshot(page, 'concierge-not-found');
    await expectNoAxeViolations(page, 'concierge unknown address');

    await field.fill(HOLDER);
    await page.getByRole('button', { name: 'Act for this card holder' }).click();
    await endsOn(page, 'profile');
    const banner = page.getByRole('region', { name: 'Support agent mode' });
    expect(await banner.textContent()).toContain('You are acting for Emily Carter');
    await page.getByText(HOLDER).first().waitFor();
    const details = JSON.parse(Buffer.from((await cookieValue(context, portal.baseUrl, 'gmap_support_details')) ?? '', 'base64url').toString()) as {
      primaryUserIdentifier: string;
      firstName: string;
    };
    expect(details.firstName).toBe('Emily');
    // An agent is offered no credential screen (ADR 0014).
    for (const name of ['Change password', 'Delete account', 'Manage cards', 'Add or manage cards'])
      expect(await page.getByRole('link', { name }).count(), name).toBe(0);

    const online = page.getByLabel('Show me personalized offers online');
    expect(await online.isChecked()).toBe(false);
    await online.check();
    await page.getByRole('button', { name: 'Save marketing preferences' }).click();
    await page.getByText('Your marketing preferences have been saved.').waitFor();
    await saveScreenshot(page, 'concierge-acting-profile');
    await expectNoAxeViolations(page, 'concierge acting for Emily');
    // Her screens are named for her (heading and tab); her cards open to read, saying why nothing changes there.
    expect(await page.locator('main h1').textContent()).toBe("Emily Carter's profile");
    expect(await page.title()).toContain("Emily Carter's profile");
    await page.getByRole('link', { name: "Emily Carter's cards" }).click();
    await endsOn(page, 'edit-pan');
    await page.getByText(/^Only the card holder can add, remove or choose a default card/).waitFor();
    expect(await page.locator('input[name="pan"]').count()).toBe(0);
    // A holder-only screen typed in sends the agent to the concierge screen, which says why.
    await page.goto(url('password'));
    await endsOn(page, 'concierge');
    await page.getByText(/^Only the card holder can open “Change password”/).waitFor();
    await saveScreenshot(page, 'concierge-holder-only-refused');
    await page.goto(url('profile'));
    await endsOn(page, 'profile');

    // "Concierge preferences": her offer preferences, saved whole through the concierge twin (ADR 0014).
    await page.getByRole('link', { name: 'Offer preferences' }).click();
    await endsOn(page, 'site-settings');
    const categories = page.locator('.site-form input[type="checkbox"]');
    await categories.first().waitFor();
    await categories.nth(1).check();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByText('Your offer preferences have been saved.').waitFor();
    expect(await banner.textContent()).toContain('You are acting for Emily Carter');

    // The audit rows, newest first, read back from the gateway's own endpoint (ADR 0014 "Audit trail").
    const audit = await context.request.get(`${portal.baseUrl}/api/user-mgmt/user/concierge/audit`);
    const entries = ((await audit.json()) as { entries: AuditEntry[] }).entries;
    expect(entries.slice(0, 3)).toEqual([
      {
        userId: details.primaryUserIdentifier,
        siteId: SITE,
        action: 'site-object.save',
        attributeKeys: ['offers_preference'],
        correlationId: expect.any(String),
        at: expect.any(String),
      },
      {
        userId: details.primaryUserIdentifier,
        siteId: SITE,
        action: 'attributes.save',
        attributeKeys: ['marketing_opt_ins'],
        correlationId: expect.any(String),
        at: expect.any(String),
      },
      {
        userId: details.primaryUserIdentifier,
        siteId: SITE,
        action: 'act-for.start',
        attributeKeys: [],
        correlationId: expect.any(String),
        at: expect.any(String),
      },
    ]);

    // The change is Emily's, seen from her own session.
    const emily = await browser.newContext();
    await signInForTest(emily, portal.baseUrl, HOLDER, SITE);
    const own = await emily.request.get(`${portal.baseUrl}/api/user-attribute/user/${SITE}`, { headers: { 'X-SITE-ID': SITE } });
    const ownAttributes = (
      (await own.json()) as {
        userSites: Record<string, { attributes: { marketing_opt_ins: Record<string, { optin: boolean }>; offers_preference: string[] } }>;
      }
    ).userSites[SITE]?.attributes;
    expect(ownAttributes?.marketing_opt_ins.online).toEqual({ optin: true });
    expect(ownAttributes?.offers_preference).toHaveLength(1);
    await emily.close();

    // SPEC §4 logout for CONCIERGE: the support-details and user-type cookies go.
    await page.goto(url('logout'));
    await endsOn(page, 'login-form');
    await expect.poll(async () => (await context.cookies(portal.baseUrl)).map((candidate) => candidate.name)).not.toContain('gmap_support_details');
    expect(await cookieValue(context, portal.baseUrl, 'gmap_user_type')).toBeUndefined();
    expect(await cookieValue(context, portal.baseUrl, 'SESSION')).toBeUndefined();
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('the concierge screen reads right to left in Arabic (ar_qa), with its error next to the field', async () => {
    const context = await browser.newContext();
    await signInForTest(context, portal.baseUrl, AGENT.email, SITE);
    const page = await context.newPage();
    await page.goto(url('concierge', 'ar_qa'));
    await endsOn(page, 'concierge');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.getByRole('button', { name: arQa.concierge.submit }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(arQa.concierge['error.required']);
    await saveScreenshot(page, 'concierge-ar_qa-required');
    await expectNoAxeViolations(page, 'concierge ar_qa');
    await context.close();
  });

  it('a card holder is refused: the concierge screen sends her to her profile, the concierge calls answer 403 NOT_CONCIERGE', async () => {
    const context = await browser.newContext();
    await signInForTest(context, portal.baseUrl, HOLDER, SITE);
    const page = await context.newPage();
    await page.goto(url('concierge'));
    await endsOn(page, 'profile');
    expect(await page.getByRole('region', { name: 'Support agent mode' }).count()).toBe(0);
    const find = await context.request.get(`${portal.baseUrl}/api/user-mgmt/user/find-concierge`);
    expect(find.status()).toBe(403);
    expect(((await find.json()) as { error: string }).error).toBe('NOT_CONCIERGE');
    const xsrf = (await cookieValue(context, portal.baseUrl, 'XSRF-TOKEN')) ?? '';
    const actFor = await context.request.post(`${portal.baseUrl}/api/user-mgmt/user/concierge/act-for`, {
      data: { email: HOLDER },
      headers: { 'X-XSRF-TOKEN': xsrf },
    });
    expect(actFor.status()).toBe(403);
    expect(((await actFor.json()) as { error: string }).error).toBe('NOT_CONCIERGE');
    await saveScreenshot(page, 'concierge-card-holder-refused');
    await context.close();
  });
});
