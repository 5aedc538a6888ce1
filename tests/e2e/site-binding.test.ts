import type { Browser, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { cookieValue, endsOn } from './support/navigation';
import { browserTest, type PortalProcess } from './support/browser-test';
import { newPasscode, outboxIds } from './support/sign-in-helpers';

// This file's gateway runs without the test hooks (GATEWAY_TEST_MODE), as a plain development start does.
browserTest.override('portalEnv', {});

/**
 * docs/decisions/0017-threat-model.md in Chromium against the real gateway and database: a session
 * belongs to the site it was signed in on. Emily, signed in on firstbank through its form and
 * e-mailed passcode, who opens another bank's account pages, sees that bank's sign-in page and none of
 * her data; her firstbank pages still work. The firstbank support agent who types his password on
 * eurobank's sign-in page is told what a wrong password is told.
 */
/** The request a navigation started with, before any redirect it followed. */
function firstRequestOf(request: Request | undefined): Request | undefined {
  let first = request;
  while (first?.redirectedFrom()) first = first.redirectedFrom() ?? undefined;
  return first;
}

const EMILY = { email: 'emily.carter@example.com', password: 'Firstbank#2025' };
const AGENT = { email: 'riley.morgan@example.com', password: 'Concierge!Desk5' };

describe('sessions stay on their site in Chromium (ADR 0017)', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (siteId: string, route: string) => `${portal.baseUrl}/${siteId}/en_us/account/${route}`;

  it("signed in on firstbank, eurobank's profile shows eurobank's sign-in page and nothing of Emily; firstbank's profile still shows hers", async () => {
    const context = await browser.newContext();
    const seen = await outboxIds(context.request, portal.baseUrl, EMILY.email);
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    const answers: { url: string; status: number }[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/')) answers.push({ url: response.url(), status: response.status() });
    });
    await page.goto(url('firstbank', 'login-form'));
    await page.getByLabel(/^Email/).fill(EMILY.email);
    await page.getByLabel(/^Password/).fill(EMILY.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await endsOn(page, 'login-otp');
    await page.getByLabel(/^One-time passcode/).fill(await newPasscode(context.request, portal.baseUrl, EMILY.email, seen));
    await page.getByRole('button', { name: 'Verify' }).click();
    await endsOn(page, 'profile');
    await expect.poll(() => page.locator('main').innerText()).toContain('Emily');

    answers.length = 0;
    const opened = await page.goto(url('eurobank', 'profile'));
    await endsOn(page, 'login-form');
    expect(await page.locator('main').innerText()).not.toContain('Emily');
    expect(await page.locator('body').innerText()).not.toContain(EMILY.email);
    // ADR 0024: the server runs the profile's §4 check itself, with this visitor's cookies, and the gateway
    // refuses eurobank's background check to firstbank's session, so the page answers with eurobank's sign-in.
    const first = firstRequestOf(opened?.request());
    expect(first?.url()).toBe(url('eurobank', 'profile'));
    const redirect = await first?.response();
    expect(redirect?.status()).toBe(302);
    expect(new URL(redirect?.headers()['location'] ?? '', portal.baseUrl).pathname).toMatch(/^\/eurobank\/en_us\/account\/login/);
    expect((await context.request.get(`${portal.baseUrl}/api/user-attribute/user/background/eurobank`)).status()).toBe(403);
    // Nor did the browser get any eurobank data.
    expect(answers.filter((answer) => /\/user-attribute\/user\/eurobank|\/user-mgmt\/user\/find/.test(answer.url) && answer.status === 200)).toEqual([]);
    await saveScreenshot(page, 'site-binding-eurobank-login');

    await page.goto(url('firstbank', 'profile'));
    await endsOn(page, 'profile');
    await expect.poll(() => page.locator('main').innerText()).toContain('Emily');
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it("the firstbank agent's password on eurobank's sign-in page is told what a wrong password is told, and no session is opened", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url('eurobank', 'login-form'));
    await page.getByLabel(/^Email/).fill(AGENT.email);
    await page.getByLabel(/^Password/).fill(AGENT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: /.+/ }).first();
    await refusal.waitFor();
    const agentRefusal = await refusal.innerText();

    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto(url('eurobank', 'login-form'));
    await otherPage.getByLabel(/^Email/).fill(AGENT.email);
    await otherPage.getByLabel(/^Password/).fill('Not-The-Password#1');
    await otherPage.getByRole('button', { name: 'Sign in' }).click();
    const wrong = otherPage.getByRole('alert').filter({ hasText: /.+/ }).first();
    await wrong.waitFor();
    expect(agentRefusal).toBe(await wrong.innerText());
    expect(await cookieValue(context, portal.baseUrl, 'SESSION')).toBeUndefined();
    await saveScreenshot(page, 'site-binding-agent-refused');
    await context.close();
    await other.close();
  });
});
