import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hostileRedirects } from '../security/hostile-redirects';
import { endsOn, routeOf } from './support/navigation';
import { browserTest, type PortalProcess } from './support/browser-test';
import { advanceGatewayClock } from './support/sign-in-helpers';

/**
 * The security suite's open-redirect tests (README "Set-up") in Chromium: where the browser really ends up
 * when an attacker sets `returnurl` (SPEC §2: stored only if valid), `last_visited_path` or `redirect_uri`
 * (SPEC §2 SSO parameters, ADR 0015). Every document request of the tab is watched: none may leave the
 * portal's origin, and a `javascript:` target would be a CSP violation, which fails the test too
 * (tests/e2e/support/no-csp-violations.ts). The gateway side is tests/gateway/security/open-redirect.test.ts.
 */
/** eurobank signs in with a password alone (login_otp none): fixtures/demo-users.json. */
const HOLDER = { email: 'lukas.schneider@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };
const SSO_SITE = 'unionbank';
/** ADR 0008: login and SSO start calls are limited per IP over 5 minutes; the sweeps move the test clock past it. */
const RATE_WINDOW_SECONDS = 5 * 60 + 1;
/** Sign-ins side by side, as many as the e2e project runs tests at once (vite.config.ts maxConcurrency). */
const SIGN_INS_AT_ONCE = 3;

describe('open redirects in Chromium (SPEC §2, §5; ADR 0015)', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let hostile: ReturnType<typeof hostileRedirects>;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
    hostile = hostileRedirects(portal.baseUrl);
  });

  /** Every document (top frame or not) the context asked for that is not on the portal's origin. */
  function offSiteDocuments(context: BrowserContext): string[] {
    const off: string[] = [];
    context.on('request', (request) => {
      if (request.isNavigationRequest() && new URL(request.url()).origin !== portal.baseUrl) off.push(request.url());
    });
    return off;
  }

  /** A tab of its own: a fresh context (no session), its off-site documents watched. */
  async function newTab(): Promise<{ context: BrowserContext; page: Page; off: string[] }> {
    const context = await browser.newContext();
    const off = offSiteDocuments(context);
    return { context, page: await context.newPage(), off };
  }

  /** Signs HOLDER in from the sign-in form opened with this `returnurl`. */
  async function signInWithReturnUrl(page: Page, returnUrl: string): Promise<void> {
    await page.goto(`${portal.baseUrl}/${HOLDER.siteId}/en_us/account/login-form?${new URLSearchParams({ returnurl: returnUrl }).toString()}`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel(/^Email/).fill(HOLDER.email);
    await page.getByLabel(/^Password/).fill(HOLDER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('returnurl: after signing in, no hostile value takes the browser off the portal; each lands on the profile', async () => {
    const landings: string[] = [];
    // A few sign-ins side by side, each in its own context; the rate window is cleared before each few, and the
    // clock stands still while they run (a move of it mid-sign-in could age a fresh session).
    for (let start = 0; start < hostile.length; start += SIGN_INS_AT_ONCE) {
      const few = hostile.slice(start, start + SIGN_INS_AT_ONCE);
      const tabs = await Promise.all(few.map(() => newTab()));
      await advanceGatewayClock(tabs[0]!.context, portal.baseUrl, RATE_WINDOW_SECONDS);
      const landed = await Promise.all(
        few.map(async ({ name, value }, index) => {
          const { context, page, off } = tabs[index]!;
          await signInWithReturnUrl(page, value);
          await endsOn(page, 'profile');
          // Give a late script-driven navigation its chance to show.
          await page.waitForLoadState('networkidle');
          const landing = `${name}: ${new URL(page.url()).origin}/…/${routeOf(page)} off-site ${JSON.stringify(off)}`;
          await context.close();
          return landing;
        }),
      );
      landings.push(...landed);
    }
    expect(landings).toEqual(hostile.map(({ name }) => `${name}: ${portal.baseUrl}/…/profile off-site []`));
  }, 300_000);

  it('returnurl: a same-site account path with its locale segment is honoured', async () => {
    const { context, page, off } = await newTab();
    await advanceGatewayClock(context, portal.baseUrl, RATE_WINDOW_SECONDS);
    await signInWithReturnUrl(page, `/${HOLDER.siteId}/en_us/account/cashback-statement`);
    await endsOn(page, 'cashback-statement');
    expect(new URL(page.url()).origin).toBe(portal.baseUrl);
    expect(off).toEqual([]);
    await context.close();
  });

  it.each(['last_visited_path', 'redirect_uri'])(
    '%s: redirect-sso refuses every hostile value on the page and never leaves the portal',
    async (parameter) => {
      const context = await browser.newContext();
      const off = offSiteDocuments(context);
      const page = await context.newPage();
      const refused: string[] = [];
      for (const { name, value } of hostile) {
        await page.goto(`${portal.baseUrl}/${SSO_SITE}/en_us/account/redirect-sso?${new URLSearchParams({ [parameter]: value }).toString()}`);
        await page.getByRole('alert').filter({ hasText: 'This sign-in link cannot be used' }).waitFor({ timeout: 15_000 });
        // No way on: the page offers no button to the gateway or the provider.
        if ((await page.getByRole('button').count()) === 0 && routeOf(page) === 'redirect-sso') refused.push(name);
      }
      expect(refused).toEqual(hostile.map(({ name }) => name));
      expect(off).toEqual([]);
      await context.close();
    },
    180_000,
  );

  it.each(['last_visited_path', 'redirect_uri'])('%s: the browser sent straight to the gateway start stays on a 400 of the portal', async (parameter) => {
    const context = await browser.newContext();
    const off = offSiteDocuments(context);
    const page = await context.newPage();
    const answers: string[] = [];
    for (const { name, value } of hostile) {
      await advanceGatewayClock(context, portal.baseUrl, RATE_WINDOW_SECONDS);
      const query = new URLSearchParams({ siteId: SSO_SITE, [parameter]: value });
      const response = await page.goto(`${portal.baseUrl}/api/user-auth/oidc/authorize?${query.toString()}`);
      answers.push(`${name}: ${response?.status()} ${new URL(page.url()).origin}`);
    }
    expect(answers).toEqual(hostile.map(({ name }) => `${name}: 400 ${portal.baseUrl}`));
    expect(off).toEqual([]);
    await context.close();
  });
});
