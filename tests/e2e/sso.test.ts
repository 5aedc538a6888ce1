import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import arQa from '../../fixtures/content/ar_qa.json';
import deDe from '../../fixtures/content/de_de.json';
import { expectNoAxeViolations } from './support/accessibility';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { cookieValue, endsOn, routeOf } from './support/navigation';

// This file's gateway runs without the test hooks (GATEWAY_TEST_MODE), as a plain development start does.
browserTest.override('portalEnv', {});

/**
 * SSO end to end (docs/decisions/0015-sso-oidc.md) in Chromium against the
 * real gateway and database, on unionbank (SPEC §3 `site_auth_profile` SSO): every other route sends
 * to redirect-sso (SPEC §2 global SSO rule), the authorization-code flow runs through the gateway's test
 * identity provider and the sso-simulator identity picker and lands signed in; a tampered state, a
 * malformed nonce and an off-site last_visited_path are refused with clear messages and never followed.
 */
const SITE = 'unionbank';

describe('SSO in Chromium against the gateway (SPEC §2, §3, §7, §9; ADR 0015)', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (route: string, locale = 'en_us') => `${portal.baseUrl}/${SITE}/${locale}/account/${route}`;

  /** Every document the page navigated to, in order (redirects included). */
  function documentsOf(page: Page): string[] {
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) documents.push(new URL(request.url()).pathname);
    });
    return documents;
  }

  it.each(['login-form', 'registration', 'profile'])('§2 global SSO rule: %s goes to redirect-sso', async (route) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url(route));
    await endsOn(page, 'redirect-sso');
    expect(await page.getByRole('button', { name: 'Continue to Smile' }).isVisible()).toBe(true);
    await context.close();
  });

  it('completes the flow through the identity picker and lands signed in; the code cannot be used twice', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    const documents = documentsOf(page);
    await page.goto(url('profile'));
    await endsOn(page, 'redirect-sso');
    await saveScreenshot(page, 'sso-redirect-start');
    await expectNoAxeViolations(page, 'sso redirect start');
    await page.getByRole('button', { name: 'Continue to Smile' }).click();
    // The form goes to the gateway's start, which redirects to the provider, which hands over to the picker.
    await endsOn(page, 'sso-simulator');
    expect(documents).toEqual(expect.arrayContaining(['/api/user-auth/oidc/authorize', '/test-idp/authorize', `/${SITE}/en_us/account/sso-simulator`]));
    expect(await page.locator('main h1').textContent()).toBe('SSO simulator');
    await page.getByRole('radio').first().waitFor();
    await saveScreenshot(page, 'sso-simulator-picker');
    await expectNoAxeViolations(page, 'sso simulator picker');

    await page.getByRole('button', { name: 'Sign in as this person' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Choose an identity to sign in as.');

    await page.getByRole('radio', { name: 'Grace Villanueva (grace.villanueva@example.com)' }).check();
    let returnUrl = '';
    page.on('request', (request) => {
      if (request.isNavigationRequest() && new URL(request.url()).searchParams.has('code')) returnUrl = request.url();
    });
    await page.getByRole('button', { name: 'Sign in as this person' }).click();

    // Signed in, the visitor lands on their profile: the §2 global SSO rule spares a signed-in card holder (ADR 0015).
    await endsOn(page, 'profile');
    await expect.poll(() => page.locator('main').textContent(), { timeout: 15_000 }).toContain('grace.villanueva@example.com');
    expect(await cookieValue(context, portal.baseUrl, 'gmap_authenticated')).toBe('true');
    expect(await cookieValue(context, portal.baseUrl, 'SESSION')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const background = await context.request.get(`${portal.baseUrl}/api/user-attribute/user/background/${SITE}`);
    expect(await background.json()).toEqual({ passesBackgroundCheck: true });
    await saveScreenshot(page, 'sso-signed-in');
    await expectNoAxeViolations(page, 'sso signed in');
    expect(cspViolations).toEqual([]);

    // Signed in, the account routes open; guest routes still go to redirect-sso, which says so.
    await page.goto(url('cashback-statement'));
    await endsOn(page, 'cashback-statement');
    await page.goto(url('login-form'));
    await endsOn(page, 'redirect-sso');
    await expect.poll(() => page.locator('main [role="status"]').textContent(), { timeout: 15_000 }).toBe('You are signed in.');
    await expectNoAxeViolations(page, 'sso redirect signed in');

    // The same code and state again (a replay from the history, in a fresh browser): refused, not signed in.
    expect(new URL(returnUrl).pathname).toBe(`/${SITE}/en_us/account/redirect-sso`);
    const other = await browser.newContext();
    const replay = await other.newPage();
    await replay.goto(returnUrl);
    await expect.poll(() => replay.getByRole('alert').textContent(), { timeout: 15_000 }).toMatch(/^⚠This sign-in could not be verified/);
    expect(await cookieValue(other, portal.baseUrl, 'gmap_authenticated')).toBeUndefined();
    await other.close();
    await context.close();
  });

  it("lands on last_visited_path after the flow; logout goes through the provider's end-session endpoint and ends on redirect-sso saying so, and account pages are closed again", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const lastVisited = `/${SITE}/en_us/account/site-settings`;
    await page.goto(url(`redirect-sso?${new URLSearchParams({ last_visited_path: lastVisited }).toString()}`));
    await page.getByRole('button', { name: 'Continue to Smile' }).click();
    await endsOn(page, 'sso-simulator');
    await page.getByRole('radio', { name: 'Marco Reyes (marco.reyes@example.com)' }).check();
    await page.getByRole('button', { name: 'Sign in as this person' }).click();
    await endsOn(page, 'site-settings');
    expect(new URL(page.url()).pathname).toBe(lastVisited);

    // Every route the tab shows, history updates included (a route reported twice in a row counts once).
    const routes: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && routes.at(-1) !== routeOf(page)) routes.push(routeOf(page));
    });
    const documents = documentsOf(page);
    // The signed-out page hydrates the server's page with no mismatch (React reports one as an uncaught error, #418).
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(url('logout'));
    await endsOn(page, 'redirect-sso');
    // SPEC §7 OIDC logout: the provider's end-session endpoint ends its side and sends the browser back.
    expect(documents).toEqual([`/${SITE}/en_us/account/logout`, '/test-idp/logout', `/${SITE}/en_us/account/redirect-sso`]);
    await expect.poll(() => cookieValue(context, portal.baseUrl, 'gmap_authenticated')).toBeUndefined();
    // The page says the holder is signed out and offers to sign in again, not "Signing you in" (auth/signed-out-mark.ts).
    await page.getByRole('button', { name: 'Sign in again' }).waitFor();
    expect(await page.locator('main h1').textContent()).toBe('You are signed out.');
    expect(await page.title()).toContain('You are signed out.');
    expect(pageErrors).toEqual([]);
    // Signed out, nothing goes round in circles: logout, then redirect-sso, and there it stays.
    await page.waitForLoadState('networkidle');
    expect(routes).toEqual(['logout', 'redirect-sso']);

    await page.goto(url('edit-profile'));
    await endsOn(page, 'redirect-sso');
    await context.close();
  });

  it('refuses a tampered state with a clear message and a way to start again', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url(`redirect-sso?code=${'c'.repeat(43)}&state=${'s'.repeat(43)}`));
    const alert = page.getByRole('alert');
    await expect
      .poll(() => alert.textContent(), { timeout: 15_000 })
      .toContain('This sign-in could not be verified: its state is unknown, changed or already used. Please start again.');
    expect(await page.getByRole('link', { name: 'Start the sign-in again' }).getAttribute('href')).toBe(`/${SITE}/en_us/account/redirect-sso`);
    expect(await cookieValue(context, portal.baseUrl, 'gmap_authenticated')).toBeUndefined();
    await saveScreenshot(page, 'sso-bad-state');
    await expectNoAxeViolations(page, 'sso bad state');
    await context.close();
  });

  it.each([
    ['a malformed nonce', 'nonce=%3Cscript%3E', 'nonce must be 16 to 128 letters, digits or the signs - . _ ~.'],
    ['an off-site last_visited_path', 'last_visited_path=https%3A%2F%2Fevil.example%2Fen_us%2F', 'last_visited_path must be a page of this site.'],
    ['an unregistered redirect_uri', 'redirect_uri=https%3A%2F%2Fevil.example%2Fcb', 'redirect_uri is not registered for this site.'],
  ])('refuses %s on the page and offers no way on to the gateway or the provider', async (_name, query, message) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const documents = documentsOf(page);
    await page.goto(url(`redirect-sso?${query}`));
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 }).toBe(`⚠This sign-in link cannot be used: ${message}`);
    expect(await page.getByRole('button').count()).toBe(0);
    expect(documents.filter((path) => path.startsWith('/api/') || path.startsWith('/test-idp/'))).toEqual([]);
    expect(routeOf(page)).toBe('redirect-sso');
    await context.close();
  });

  it('works right to left (ar_qa): the simulator opened without a sign-in request says so in Arabic', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url('sso-simulator', 'ar_qa'));
    await endsOn(page, 'sso-simulator');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(`⚠${arQa.sso['simulator.noRequest']}`);
    expect(await page.getByRole('link', { name: arQa.sso.startAgain }).getAttribute('href')).toBe(`/${SITE}/ar_qa/account/redirect-sso`);
    await saveScreenshot(page, 'sso-simulator-ar_qa');
    await expectNoAxeViolations(page, 'sso simulator ar_qa');
    await context.close();
  });
  it.each([390, 1280])(
    'SAML (ADR 0028) at %i px on rheinbank, in German: redirect-sso, the test SAML identity provider, the profile, single logout, the signed-out page',
    async (width) => {
      const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } });
      const page = await context.newPage();
      const cspViolations = collectCspViolations(page);
      const rheinbank = (route: string) => `${portal.baseUrl}/rheinbank/de_de/account/${route}`;
      await page.goto(rheinbank('profile'));
      await endsOn(page, 'redirect-sso');
      await page.getByRole('button', { name: 'Weiter zu Rheinbank Login' }).waitFor();
      await saveScreenshot(page, `saml-redirect-start-${width}`);
      await page.getByRole('button', { name: 'Weiter zu Rheinbank Login' }).click();
      await page.waitForURL(/\/test-saml-idp\/sso\?SAMLRequest=/);
      expect(await page.locator('html').getAttribute('lang')).toBe('de-DE');
      await saveScreenshot(page, `saml-test-idp-${width}`);
      await page.getByRole('button', { name: new RegExp(`^${deDe.sso['simulator.submit']}: Anna Becker`) }).click();
      await endsOn(page, 'profile');
      await expect.poll(() => page.locator('main').textContent(), { timeout: 15_000 }).toContain('anna.becker@example.com');
      expect(await cookieValue(context, portal.baseUrl, 'gmap_authenticated')).toBe('true');
      await saveScreenshot(page, `saml-profile-${width}`);

      // SAML single logout: the session ends, the test provider answers a LogoutResponse to the site's SLO service,
      // which checks it and sends the browser to redirect-sso, which says the holder is signed out.
      const documents = documentsOf(page);
      await page.goto(rheinbank('logout'));
      await endsOn(page, 'redirect-sso');
      expect(documents).toEqual([
        '/rheinbank/de_de/account/logout',
        '/test-saml-idp/slo',
        '/api/user-auth/saml/slo/rheinbank',
        '/rheinbank/de_de/account/redirect-sso',
      ]);
      await page.getByRole('button', { name: deDe.sso.signInAgain }).waitFor();
      expect(await page.locator('main h1').textContent()).toBe(deDe.sso.signedOut);
      expect(await cookieValue(context, portal.baseUrl, 'gmap_authenticated')).toBeUndefined();
      await saveScreenshot(page, `saml-signed-out-${width}`);
      await expectNoAxeViolations(page, `saml signed out ${width}`);
      // Signing in again is the same start, and the page says so no more once it is taken.
      await page.getByRole('button', { name: deDe.sso.signInAgain }).click();
      await page.waitForURL(/\/test-saml-idp\/sso\?SAMLRequest=/);
      await page.goto(rheinbank('redirect-sso'));
      await page.getByRole('button', { name: 'Weiter zu Rheinbank Login' }).waitFor();
      expect(cspViolations).toEqual([]);
      await context.close();
    },
  );
});
