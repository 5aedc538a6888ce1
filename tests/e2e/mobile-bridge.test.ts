import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/accessibility';
import { saveScreenshot } from './support/browser';
import { endsOn } from './support/navigation';
import { browserTest, type PortalProcess } from './support/browser-test';
import { newPasscode, outboxIds } from './support/sign-in-helpers';
import { signInForTest } from './support/test-session';

/**
 * The mobile app bridge in Chromium against the real gateway: SPEC §1 "isMobile marks such sessions", §3
 * feature events (login, logout, editProfile, deleteProfile) told to the native bridge, §4 logout
 * notifies it, and §2's mobile deep link with the site's configured app (firstbank's `mobile_app`,
 * ADR 0001). The test bridge is a `window.ReactNativeWebView` defined before the app's scripts; it
 * keeps every message in session storage, so the record survives full page loads of the tab.
 * Demo users are the fixtures' (fixtures/demo-users.json).
 */
const USERS = {
  /** firstbank: login_otp "email", so the sign-in goes through the passcode read from the dev outbox. */
  firstbank: { email: 'emily.carter@example.com', password: 'Firstbank#2025', siteId: 'firstbank' },
  /** eurobank: login_otp "none"; this account is deleted by its test. */
  eurobank: { email: 'lukas.schneider@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' },
  /** promotions_en_us: login_otp "none". */
  promotions: { email: 'jordan.lee@example.com', password: 'Promo^Deals42', siteId: 'promotions_en_us' },
} as const;

/** firstbank's app (fixtures/sites/firstbank.json mobile_app). */
const APP_SCHEME = 'firstbankrewards://';
const ANDROID_STORE_URL = 'https://play.google.com/store/apps/details?id=com.firstbank.rewards';
const IPHONE_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID_AGENT = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

const RECORD_KEY = 'test-bridge-messages';

/** Defines the test bridge in every document of the context, before the app runs. */
async function withTestBridge(context: BrowserContext): Promise<void> {
  await context.addInitScript((key: string) => {
    (window as unknown as { ReactNativeWebView: { postMessage(message: string): void } }).ReactNativeWebView = {
      postMessage(message: string) {
        const heard = JSON.parse(window.sessionStorage.getItem(key) ?? '[]') as string[];
        heard.push(message);
        window.sessionStorage.setItem(key, JSON.stringify(heard));
      },
    };
  }, RECORD_KEY);
}

/** The §3 feature events the test bridge heard in this tab, in order. */
async function heardFeatures(page: Page): Promise<string[]> {
  const raw = await page.evaluate((key) => window.sessionStorage.getItem(key) ?? '[]', RECORD_KEY);
  return (JSON.parse(raw) as string[]).map((message) => {
    const parsed = JSON.parse(message) as { type: string; feature: string };
    expect(parsed.type).toBe('feature');
    return parsed.feature;
  });
}

describe('the mobile app bridge in Chromium against the gateway (SPEC §1, §2, §3, §4)', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (siteId: string, route: string, search = '') => `${portal.baseUrl}/${siteId}/en_us/account/${route}${search}`;

  /** Uncaught errors of the page: the app must run the same with or without a bridge. */
  function pageErrorsOf(page: Page): string[] {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    return errors;
  }

  async function signInWithPassword(page: Page, user: { email: string; password: string }): Promise<void> {
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel(/^Email/).fill(user.email);
    await page.getByLabel(/^Password/).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function saveLastName(page: Page, siteId: string, lastName: string): Promise<void> {
    await page.goto(url(siteId, 'edit-profile'));
    await endsOn(page, 'edit-profile');
    await page.getByLabel(/^Last name/).fill(lastName);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await endsOn(page, 'profile');
    await page.getByText('Your profile has been saved.').waitFor();
  }

  async function signOut(page: Page, siteId: string): Promise<void> {
    await page.goto(url(siteId, 'logout'));
    await endsOn(page, 'login-form');
  }

  it('with isMobile: login after sign-in, editProfile after saving the profile, logout after sign-out, in that order', async () => {
    const user = USERS.firstbank;
    const context = await browser.newContext();
    await withTestBridge(context);
    const page = await context.newPage();
    const errors = pageErrorsOf(page);
    const seen = await outboxIds(context.request, portal.baseUrl, user.email);
    await page.goto(url(user.siteId, 'login-form', '?isMobile=true'));
    await signInWithPassword(page, user);
    await endsOn(page, 'login-otp');
    expect(await heardFeatures(page)).toEqual([]); // a passcode still to come is no sign-in yet
    await page.getByLabel(/^One-time passcode/).fill(await newPasscode(context.request, portal.baseUrl, user.email, seen));
    await page.getByRole('button', { name: 'Verify' }).click();
    await endsOn(page, 'profile');
    expect(await heardFeatures(page)).toEqual(['login']);

    // The later pages load without isMobile in their URL: the session stays marked.
    await saveLastName(page, user.siteId, 'Carter-Mobile');
    expect(await heardFeatures(page)).toEqual(['login', 'editProfile']);

    await signOut(page, user.siteId);
    expect(await heardFeatures(page)).toEqual(['login', 'editProfile', 'logout']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with isMobile: deleting the account tells the bridge deleteProfile, not logout', async () => {
    const user = USERS.eurobank;
    const context = await browser.newContext();
    await withTestBridge(context);
    const page = await context.newPage();
    await page.goto(url(user.siteId, 'login-form', '?isMobile=true'));
    await signInWithPassword(page, user);
    await endsOn(page, 'profile');
    await page.goto(url(user.siteId, 'delete-profile'));
    await endsOn(page, 'delete-profile');
    await expectNoAxeViolations(page, 'delete profile (mobile session)');
    // ADR 0009 "Deletion: proof of presence": the password and the ticked confirmation.
    await page.getByLabel(/^Current password/).fill(user.password);
    await page.getByRole('checkbox', { name: /I understand that my account/ }).check();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await endsOn(page, 'login-form');
    await page.getByText('Your account has been deleted.').waitFor();
    expect(await heardFeatures(page)).toEqual(['login', 'deleteProfile']);

    // The account is gone: its password no longer signs in.
    await signInWithPassword(page, user);
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 15_000 }).toContain("Oops that wasn't the right combination.");
    expect(await heardFeatures(page)).toEqual(['login', 'deleteProfile']);
    await context.close();
  });

  it('without isMobile no message is posted, though the page has a bridge', async () => {
    const user = USERS.promotions;
    const context = await browser.newContext();
    await withTestBridge(context);
    const page = await context.newPage();
    await page.goto(url(user.siteId, 'login-form'));
    await signInWithPassword(page, user);
    await endsOn(page, 'profile');
    await saveLastName(page, user.siteId, 'Lee-Desktop');
    await signOut(page, user.siteId);
    expect(await page.evaluate(() => typeof (window as { ReactNativeWebView?: unknown }).ReactNativeWebView)).toBe('object');
    expect(await heardFeatures(page)).toEqual([]);
    await context.close();
  });

  it('with isMobile and no bridge defined, sign-in, saving the profile and sign-out work without an error', async () => {
    const user = USERS.promotions;
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = pageErrorsOf(page);
    await page.goto(url(user.siteId, 'login-form', '?isMobile=true'));
    await signInWithPassword(page, user);
    await endsOn(page, 'profile');
    await saveLastName(page, user.siteId, 'Lee-Webview');
    await signOut(page, user.siteId);
    expect(await page.evaluate(() => window.sessionStorage.getItem('is_mobile'))).toBe('true');
    expect(errors).toEqual([]);
    await saveScreenshot(page, 'mobile-bridge-none-signed-out');
    await context.close();
  });

  describe('§2 mobile deep link: a signed-in visitor on a phone with a returnurl of the site app', () => {
    /**
     * Every navigation the page asks for, custom schemes included: Chromium reports renderer-started
     * navigations over CDP before deciding whether it can follow them (an app scheme it cannot).
     */
    async function requestedNavigations(context: BrowserContext, page: Page): Promise<string[]> {
      const requested: string[] = [];
      const cdp = await context.newCDPSession(page);
      cdp.on('Page.frameRequestedNavigation', (event: { url: string }) => requested.push(event.url));
      await cdp.send('Page.enable');
      return requested;
    }

    async function phoneSignedIn(userAgent: string): Promise<{ context: BrowserContext; page: Page; requested: string[]; storeVisits: string[] }> {
      const context = await browser.newContext({ userAgent, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      await signInForTest(context, portal.baseUrl, USERS.firstbank.email, USERS.firstbank.siteId);
      // The store page is the network's; the test answers it so no request leaves the machine.
      const storeVisits: string[] = [];
      await context.route('https://play.google.com/**', async (route) => {
        storeVisits.push(route.request().url());
        await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Store</title><h1>Store</h1>' });
      });
      const page = await context.newPage();
      const requested = await requestedNavigations(context, page);
      return { context, page, requested, storeVisits };
    }

    const returnUrl = `${APP_SCHEME}offers/123`;
    const search = `?${new URLSearchParams({ returnurl: returnUrl }).toString()}`;

    it('iOS: the app scheme is opened, and nothing else', async () => {
      const { context, page, requested, storeVisits } = await phoneSignedIn(IPHONE_AGENT);
      await page.goto(url('firstbank', 'login-form', search));
      await expect.poll(() => requested, { timeout: 15_000 }).toContain(returnUrl);
      // Well past the Android fallback (§9 250 ms): iOS has none.
      await page.waitForTimeout(1_000);
      expect(requested.filter((target) => !target.startsWith(portal.baseUrl))).toEqual([returnUrl]);
      expect(storeVisits).toEqual([]);
      await context.close();
    });

    it('Android: the app scheme, then the configured store page', async () => {
      const { context, page, requested, storeVisits } = await phoneSignedIn(ANDROID_AGENT);
      await page.goto(url('firstbank', 'login-form', search));
      await expect.poll(() => storeVisits, { timeout: 15_000 }).toEqual([ANDROID_STORE_URL]);
      expect(requested.filter((target) => !target.startsWith(portal.baseUrl))).toEqual([returnUrl, ANDROID_STORE_URL]);
      await expect.poll(() => page.url()).toBe(ANDROID_STORE_URL);
      await context.close();
    });

    it('another app’s scheme is not followed: the visitor goes on to the profile', async () => {
      const { context, page, requested, storeVisits } = await phoneSignedIn(ANDROID_AGENT);
      await page.goto(url('firstbank', 'login-form', `?${new URLSearchParams({ returnurl: 'otherbank://offers/123' }).toString()}`));
      await endsOn(page, 'profile');
      await page.waitForTimeout(1_000);
      expect(requested.filter((target) => !target.startsWith(portal.baseUrl))).toEqual([]);
      expect(storeVisits).toEqual([]);
      await context.close();
    });
  });
});
