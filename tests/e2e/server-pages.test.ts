import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import demoUsers from '../../fixtures/demo-users.json';
import { APP_MODULE_PRELOADS_PER_TASK, SERVER_PAGE_DATA_ID } from '../../schemas/pages/server-page';
import { siteLocalesOf } from '../../schemas/site-config/site-locales';
import { listSiteFixtures } from '../support/site-fixtures';
import { browserTest, type PortalProcess } from './support/browser-test';
import { appHasTakenOver, endsOn, routeOf } from './support/navigation';
import { contentTextsIn } from './support/site-journey/journey-site';
import { signInForTest } from './support/test-session';
import { STORAGE } from '../../src/app/storage-names';
import { GUEST_SERVER_ROUTES } from '../../src/server/server-page-data';

/**
 * First screens from the server (DESIGN "First paint", docs/decisions/0024-first-paint-from-the-server.md) in
 * Chromium against the real gateway: the HTML alone carries each guest route's form (SPEC §2), the browser
 * hydrates that markup on every site without a mismatch and without asking again for what the page carries
 * (SPEC §7 calls), a personal page is never kept or shown to anyone else (SPEC §6), bad input never gives a
 * 500 or a blank page (DESIGN "Quality bars"), and the server's redirects are the §2 route guards'.
 */
type GuestRoute = (typeof GUEST_SERVER_ROUTES)[number];

/** What a person needs on each guest screen to act without the app's code: the form fields and the button (ids are RJSF's `root_…`). */
const FORM_OF: Partial<Record<GuestRoute, string[]>> = {
  login: ['#root_username', '#root_password', 'button[type="submit"]'],
  'login-form': ['#root_username', '#root_password', 'button[type="submit"]'],
  registration: ['#root_email', '#root_password', 'button[type="submit"]'],
  recovery: ['#root_email', 'button[type="submit"]'],
  'resend-activation': ['#root_email', 'button[type="submit"]'],
};

/** The calls whose answers the page carries (ADR 0024): the browser never makes them again for the first screen. */
const CARRIED_CALLS = /\/api\/site-config-service\/|\/api\/bin\/aem\/rest|\/offersdata\//;

/** Two card holders of one site (fixtures/demo-users.json), taking turns on the same gateway. */
const [PERSON_A, PERSON_B] = ['emily.carter@example.com', 'casey.park@example.com'].map((email) => {
  const user = demoUsers.find((candidate) => candidate.email === email);
  if (user === undefined) throw new Error(`no demo user ${email}`);
  return { email, siteId: user.siteId, locale: user.locale, name: `${user.firstName} ${user.lastName}` };
}) as [Person, Person];
interface Person {
  email: string;
  siteId: string;
  locale: string;
  name: string;
}

/** Every site in every locale it is for (fixture site_locales): a new site is covered with no test edit. */
const SITE_PAGES = listSiteFixtures().flatMap((site) => siteLocalesOf(site).map((locale) => ({ siteId: site.siteId, locale })));

/**
 * The shell the server's HTML drew, recorded when the parser is done and before the app's module script runs
 * (readyState "interactive" comes before deferred scripts), to tell hydration from a fresh render.
 */
const RECORD_SERVER_SHELL = `document.addEventListener('readystatechange', () => {
  if (document.readyState === 'interactive') window.__ssrShell = document.querySelector('#root .shell');
});`;

async function waitForHydration(page: Page): Promise<void> {
  await expect.poll(() => appHasTakenOver(page), { timeout: 15_000 }).toBe(true);
}

/** True when the shell React now runs is the very node the server's HTML drew (hydrated, not rendered afresh). */
async function keptServerShell(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const recorded = (window as unknown as { __ssrShell?: Element | null }).__ssrShell;
    return recorded !== undefined && recorded !== null && document.querySelector('#root .shell') === recorded;
  });
}

/** Every console error or warning and every uncaught error of the page (React reports a hydration mismatch as one). */
function collectPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** The HTTP answers of a navigation, first request first (the redirects the browser followed, then the page). */
async function responseChain(response: Response | null): Promise<{ url: string; status: number }[]> {
  const chain: { url: string; status: number }[] = [];
  for (let request = response?.request() ?? null; request !== null; request = request.redirectedFrom()) {
    const answer = await request.response();
    chain.unshift({ url: request.url(), status: answer?.status() ?? 0 });
  }
  return chain;
}

describe('first screens from the server (DESIGN "First paint", ADR 0024)', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const pageUrl = (siteId: string, locale: string, route: string, search = '') => `${portal.baseUrl}/${siteId}/${locale}/account/${route}${search}`;

  describe.each([
    { siteId: 'firstbank', locale: 'en_us' },
    { siteId: 'eurobank', locale: 'de_de' },
  ])('$siteId in $locale', ({ siteId, locale }) => {
    const text = contentTextsIn(locale);

    it('SPEC §2: with JavaScript off, every guest route shows its heading and its form from the HTML alone', async () => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      for (const route of GUEST_SERVER_ROUTES) {
        await page.goto(pageUrl(siteId, locale, route));
        expect(routeOf(page), `${route} stays on its own route`).toBe(route);
        expect(await page.locator('main h1').first().textContent({ timeout: 2_000 }), `the heading of ${route}`).toBe(text('common', `title.${route}`));
        for (const selector of FORM_OF[route] ?? []) {
          expect(await page.locator(`main ${selector}`).first().isVisible(), `${selector} on ${route}`).toBe(true);
        }
        // A form without its app cannot be sent: a submit would post it to the page's address and get nothing back.
        if (FORM_OF[route] !== undefined)
          expect(await page.locator('main button[type="submit"]').first().isDisabled(), `the submit button on ${route}`).toBe(true);
      }
      await context.close();
    });

    it('SPEC §8: with JavaScript on, the same sign-in page hydrates and refuses a wrong password on the form without a reload', async () => {
      const context = await browser.newContext();
      await context.addInitScript({ content: RECORD_SERVER_SHELL });
      const page = await context.newPage();
      await page.goto(pageUrl(siteId, locale, 'login-form'));
      await waitForHydration(page);
      expect(await keptServerShell(page), "React took over the server's markup rather than drawing its own").toBe(true);
      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
      await page.locator('#root_username').fill('nobody.at.all@example.com');
      await page.locator('#root_password').fill('not-the-password-1A!');
      await page.locator('main button[type="submit"]').click();
      await expect.poll(() => page.getByRole('alert').first().textContent()).toContain(text('errors', 'wrongCombination'));
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      expect(routeOf(page)).toBe('login-form');
      await context.close();
    });
  });

  it.concurrent.for(SITE_PAGES)(
    'ADR 0024: $siteId in $locale hydrates the server markup of its guest routes with no console error, warning or page error',
    async ({ siteId, locale }, { expect: expectHere }) => {
      const index = SITE_PAGES.findIndex((candidate) => candidate.siteId === siteId && candidate.locale === locale);
      // Login and registration on every site; each other guest route on at least one site (the list wraps).
      const others = GUEST_SERVER_ROUTES.filter((route) => route !== 'login' && route !== 'registration');
      const routes = ['login', 'registration', others[index % others.length]!];
      const context = await browser.newContext();
      await context.addInitScript({ content: RECORD_SERVER_SHELL });
      try {
        await Promise.all(
          routes.map(async (route) => {
            const page = await context.newPage();
            const problems = collectPageProblems(page);
            const response = await page.goto(pageUrl(siteId, locale, route));
            expectHere(response?.status(), `${route}: the page's status`).toBe(200);
            expectHere(await response?.text(), `${route}: the HTML carries the page's data`).toContain(`id="${SERVER_PAGE_DATA_ID}"`);
            // Nine pages hydrate side by side here (maxConcurrency 3, three routes each): a loaded machine needs the wait.
            await expectHere.poll(() => appHasTakenOver(page), { timeout: 40_000 }).toBe(true);
            await page.locator('main h1').first().waitFor();
            expectHere(await keptServerShell(page), `${route} (${page.url()}): hydrated the server's shell rather than drawing a new one`).toBe(true);
            expectHere(problems, `${route} (${page.url()})`).toEqual([]);
          }),
        );
      } finally {
        await context.close();
      }
    },
  );

  it("ADR 0024: a server page preloads each of the app's files its entry lists once, a few per task after its paint, and Vite's preloading adds none of them again", async () => {
    const context = await browser.newContext();
    // The module preloads added to the document, grouped by the task that added them (one observer call per task).
    await context.addInitScript({
      content: `window.__preloadBatches = [];
new MutationObserver((records) => {
  const added = records.flatMap((record) => [...record.addedNodes]).filter((node) => node instanceof HTMLLinkElement && node.rel === 'modulepreload');
  if (added.length > 0) window.__preloadBatches.push(added.map((link) => new URL(link.href).pathname));
}).observe(document, { childList: true, subtree: true });`,
    });
    const page = await context.newPage();
    const scriptRequests: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scriptRequests.push(new URL(request.url()).pathname);
    });
    await page.goto(pageUrl('firstbank', 'en_us', 'registration'));
    await waitForHydration(page);
    const { entryCode, preloaded, batches } = await page.evaluate(async () => {
      const entry = document.querySelector<HTMLScriptElement>('script[type="module"][src]');
      const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => new URL(link.href).pathname);
      return {
        entryCode: entry === null ? '' : await (await fetch(entry.src)).text(),
        preloaded: links,
        batches: (window as unknown as { __preloadBatches: string[][] }).__preloadBatches,
      };
    });
    // The files the entry names (the list the build wrote into it): at least React DOM's client, the store and the app.
    const listed = [...new Set(preloaded)].filter((file) => entryCode.includes(file));
    expect(listed.length).toBeGreaterThan(2);
    for (const file of listed) {
      expect(
        preloaded.filter((href) => href === file),
        `${file}: preloaded once`,
      ).toHaveLength(1);
      expect(
        scriptRequests.filter((path) => path === file),
        `${file}: fetched once`,
      ).toHaveLength(1);
    }
    // Vite's preloading would have added the listed files all in the task of the first import.
    for (const batch of batches)
      expect(batch.filter((file) => listed.includes(file)).length, `one task's preloads: ${batch.join(' ')}`).toBeLessThanOrEqual(APP_MODULE_PRELOADS_PER_TASK);
    await context.close();
  });

  it('ADR 0024: a registration page with a draft kept in the tab is drawn afresh with the draft, never hydrated over the empty form', async () => {
    const context = await browser.newContext();
    await context.addInitScript({ content: RECORD_SERVER_SHELL });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto(pageUrl('firstbank', 'en_us', 'registration'));
    await waitForHydration(page);
    // What the registration keeps for this tab when the person goes on to add a card (form-drafts.ts), then a reload.
    await page.evaluate(
      ([key, siteId]) => window.sessionStorage.setItem(key!, JSON.stringify({ siteId, data: { first_name: 'Dana' } })),
      [STORAGE.registrationDraft, 'firstbank'],
    );
    await page.reload();
    await waitForHydration(page);
    await expect.poll(() => page.locator('#root_first_name').inputValue()).toBe('Dana');
    expect(await keptServerShell(page), 'the app drew its own page rather than hydrating the server one').toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(['login-form', 'registration'])(
    'ADR 0024: %s of a site with the carousel hydrates without moving anything the server drew (no layout shift), at phone width',
    async (route) => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addInitScript({
        content: `window.__layoutShifts = [];
new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__layoutShifts.push(entry.value); }).observe({ type: 'layout-shift', buffered: true });`,
      });
      const page = await context.newPage();
      // dohabank's cms tenant is not vpp: its sign-in and registration show the carousel (SPEC §3), in a chunk of its own.
      await page.goto(pageUrl('dohabank', 'en_us', route));
      await waitForHydration(page);
      await page.waitForLoadState('networkidle');
      await page.locator('main .carousel').first().waitFor();
      expect(await page.evaluate(() => (window as unknown as { __layoutShifts: number[] }).__layoutShifts)).toEqual([]);
      await context.close();
    },
  );

  it.each(['login-form', 'registration'])('SPEC §7: %s asks no carried call again after its HTML arrived', async (route) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (CARRIED_CALLS.test(request.url())) asked.push(request.url());
    });
    await page.goto(pageUrl('firstbank', 'en_us', route));
    await waitForHydration(page);
    // Whatever the page would ask for at start has been asked by the time it is idle.
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
    await context.close();
  });

  describe('SPEC §6: two people in turn, through the page cache', () => {
    const profileUrl = () => pageUrl(PERSON_A.siteId, PERSON_A.locale, 'profile');
    let contextA: BrowserContext;
    let contextB: BrowserContext;

    async function openProfile(context: BrowserContext, person: Person, other: Person): Promise<void> {
      const page = await context.newPage();
      const response = await page.goto(profileUrl());
      expect(response?.headers()['cache-control'], 'the profile HTML is for this visitor only').toBe('private, no-store');
      const html = (await response?.text()) ?? '';
      expect(html, "the profile's HTML is the signed-in person's").toContain(person.email);
      expect(html).not.toContain(other.email);
      await endsOn(page, 'profile');
      await page.getByText(person.name).first().waitFor();
      expect(await page.locator('#root').innerText()).not.toContain(other.name);
      await page.close();
    }

    it('A signs in and sees only A; B signs in next and sees only B', async () => {
      contextA = await browser.newContext();
      contextB = await browser.newContext();
      await signInForTest(contextA, portal.baseUrl, PERSON_A.email, PERSON_A.siteId);
      await openProfile(contextA, PERSON_A, PERSON_B);
      await signInForTest(contextB, portal.baseUrl, PERSON_B.email, PERSON_B.siteId);
      await openProfile(contextB, PERSON_B, PERSON_A);
    });

    it('a guest next on the same site gets a sign-in page holding neither name nor e-mail', async () => {
      const guest = await browser.newContext();
      for (const route of ['login', 'login-form', 'profile']) {
        const page = await guest.newPage();
        const response = await page.goto(pageUrl(PERSON_A.siteId, PERSON_A.locale, route));
        const html = (await response?.text()) ?? '';
        expect(routeOf(page), `${route} ends on sign-in`).toMatch(/^login(-form)?$/);
        for (const person of [PERSON_A, PERSON_B]) {
          expect(html, `${route}: the HTML, data block included`).not.toContain(person.email);
          expect(html).not.toContain(person.name);
        }
        await page.close();
      }
      await guest.close();
    });

    it('A reloading the profile after B still sees A', async () => {
      await openProfile(contextA, PERSON_A, PERSON_B);
      await contextA.close();
      await contextB.close();
    });
  });

  it.each([
    { what: 'an unknown site', path: '/nosuchbank/en_us/account/login' },
    { what: 'an unknown locale', path: '/firstbank/xx_yy/account/login' },
    { what: 'a malformed query', path: '/firstbank/en_us/account/login?%E0%A4%A=1&siteid=%00' },
    { what: 'a very long query', path: `/firstbank/en_us/account/login?returnurl=${'a'.repeat(6_000)}` },
  ])('DESIGN "Quality bars": $what answers a page with a form, never a 500 or a blank page', async ({ path }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${portal.baseUrl}${path}`);
    const chain = await responseChain(response);
    expect(
      chain.slice(0, -1).every((step) => step.status >= 300 && step.status < 400),
      JSON.stringify(chain),
    ).toBe(true);
    expect(chain.at(-1)?.status, JSON.stringify(chain)).toBe(200);
    await page.locator('main form').first().waitFor({ state: 'visible', timeout: 15_000 });
    expect(await page.locator('main form input:visible').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('SPEC §2 guards on the server: a signed-in person opening login gets a 302 to the profile, a guest opening profile a 302 to sign-in', async () => {
    const signedIn = await browser.newContext();
    await signInForTest(signedIn, portal.baseUrl, PERSON_A.email, PERSON_A.siteId);
    const page = await signedIn.newPage();
    const toProfile = await responseChain(await page.goto(pageUrl(PERSON_A.siteId, PERSON_A.locale, 'login')));
    expect(toProfile.map((step) => step.status)).toEqual([302, 200]);
    expect(new URL(toProfile[1]!.url).pathname).toBe(`/${PERSON_A.siteId}/${PERSON_A.locale}/account/profile`);
    await signedIn.close();

    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    const toSignIn = await responseChain(await guestPage.goto(pageUrl(PERSON_A.siteId, PERSON_A.locale, 'profile')));
    expect(toSignIn.map((step) => step.status)).toEqual([302, 200]);
    expect(new URL(toSignIn[1]!.url).pathname).toBe(`/${PERSON_A.siteId}/${PERSON_A.locale}/account/login-form`);
    await guest.close();
  });
});
