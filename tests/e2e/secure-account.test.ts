import type { APIRequestContext, Browser, BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import deDe from '../../fixtures/content/de_de.json';
import { expectNoAxeViolations } from './support/accessibility';
import { saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { endsOn } from './support/navigation';
import { outboxMessages } from './support/sign-in-helpers';

/**
 * ADR 0021 "Telling the holder" in Chromium against the real gateway: someone signs in to Lukas's eurobank account
 * (demo user, de_de) from a browser it has never seen; the notice in the outbox carries the "this wasn't me" link;
 * Lukas opens it (which changes nothing), presses the one button, and lands on the password reset with his address
 * filled in, while the other browser's session is over. The link then works no more.
 */
const LUKAS = { email: 'lukas.schneider@example.com', password: 'Eurobank&Sicher9' };
const text = (group: 'common' | 'account', key: string): string => (deDe[group] as Record<string, string>)[key] ?? `(no ${group}.${key})`;

let portal: PortalProcess;
let browser: Browser;

browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

/** A password sign-in of Lukas through the gateway's API, as the sign-in form posts it, from `context`'s browser. */
async function signIn(context: BrowserContext): Promise<void> {
  await context.request.get(`${portal.baseUrl}/api/site-config-service/config/site/eurobank`);
  const xsrf = (await context.cookies(portal.baseUrl)).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await context.request.post(`${portal.baseUrl}/api/user-auth/login`, {
    multipart: { username: LUKAS.email, password: LUKAS.password, grant_type: 'password', siteId: 'eurobank', locale: 'de_de', init_login: 'true' },
    headers: { 'X-XSRF-TOKEN': xsrf },
  });
  expect(response.status(), await response.text()).toBe(200);
}

const signedIn = async (request: APIRequestContext) => (await request.get(`${portal.baseUrl}/api/user-mgmt/user/find`)).status() === 200;

/** The secure-account link of the newest notice to Lukas, waiting for the job that mails it. */
async function newestLink(request: APIRequestContext): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const messages = await outboxMessages(request, portal.baseUrl, LUKAS.email);
      link = messages.map((message) => /https?:\/\/\S+\/account\/secure-account\?token=[A-Za-z0-9_-]{43}/.exec(message.text)?.[0]).find(Boolean);
      return messages[0]?.subject;
    })
    .toBe('Neue Anmeldung bei Ihrem Konto');
  return link!;
}

describe('secure-account: a notice’s “this wasn’t me” link (ADR 0021)', () => {
  it('a sign-in from a new browser is mailed with the link; the button ends every session and leads to the reset, the address filled in', async () => {
    const own = await browser.newContext();
    const stranger = await browser.newContext();
    await signIn(own);
    await signIn(stranger);
    const link = await newestLink(own.request);
    expect(link.startsWith(`${portal.baseUrl}/eurobank/de_de/account/secure-account?token=`)).toBe(true);

    const page = await own.newPage();
    await page.goto(link);
    await endsOn(page, 'secure-account');
    await page.getByRole('heading', { level: 1, name: text('common', 'title.secure-account') }).waitFor();
    await saveScreenshot(page, 'secure-account-de_de');
    await expectNoAxeViolations(page, 'secure-account');
    // Opening the link changed nothing.
    expect(await signedIn(stranger.request)).toBe(true);

    await page.getByRole('button', { name: text('account', 'secureAccount.submit') }).click();
    await endsOn(page, 'recovery');
    expect(page.url()).not.toContain('token=');
    await page.getByText(text('account', 'secureAccount.done')).waitFor();
    expect(await page.locator('#root_email').inputValue()).toBe(LUKAS.email);
    expect(await signedIn(stranger.request)).toBe(false);
    expect(await signedIn(own.request)).toBe(false);

    // The same link again: used, said so, with the reset offered.
    const again = await own.newPage();
    await again.goto(link);
    await endsOn(again, 'secure-account');
    await again.getByRole('button', { name: text('account', 'secureAccount.submit') }).click();
    await again
      .getByRole('alert')
      .filter({ hasText: text('account', 'secureAccount.invalid') })
      .waitFor();
    await again.getByRole('link', { name: text('account', 'secureAccount.recovery') }).waitFor();
    await own.close();
    await stranger.close();
  });
});
