import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { ANDROID_STORE_FALLBACK_MS, isAppDeepLink, mobileAppOf, mobileDeviceOf, openMobileApp } from '../../../src/app/mobile-deep-link';
import { FEATURE_FLAGS } from '../../../src/app/feature-flags';
import { decideRoute, type GuardContext } from '../../../src/routes/route-guards';
import { readSiteFixture } from '../../support/site-fixtures';

/** firstbank configures its app (fixtures/sites/firstbank.json, ADR 0001 mobile_app). */
const FIRSTBANK = readSiteFixture('firstbank');
const SCHEME = 'firstbankrewards://';
const STORE = 'https://play.google.com/store/apps/details?id=com.firstbank.rewards';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8)';

function withoutApp(site: SiteConfig): SiteConfig {
  return { ...site, siteFeatureConfigurations: site.siteFeatureConfigurations.filter((feature) => feature.name !== 'mobile_app') };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('§2 mobile deep link: the site configuration', () => {
  it('reads the scheme and the store page from the site (mobile_app)', () => {
    expect(mobileAppOf(FIRSTBANK)).toEqual({ scheme: SCHEME, androidStoreUrl: STORE });
  });

  it('a site without mobile_app has no app', () => {
    expect(mobileAppOf(withoutApp(FIRSTBANK))).toBeNull();
    expect(isAppDeepLink(`${SCHEME}offers`, mobileAppOf(withoutApp(FIRSTBANK)))).toBe(false);
  });

  it.each([
    [`${SCHEME}offers/123`, true],
    ['FirstBankRewards://offers', true], // schemes are case-insensitive (RFC 3986)
    ['otherbank://offers/123', false], // another app's scheme is never followed
    ['firstbankrewards:offers', false],
    ['/firstbank/en_us/account/profile', false],
    ['https://evil.example/firstbankrewards://', false],
    [null, false],
  ] as const)('%s is a deep link of the site app: %s', (url, expected) => {
    expect(isAppDeepLink(url, mobileAppOf(FIRSTBANK))).toBe(expected);
  });
});

describe('§2 mobile deep link: opening the app', () => {
  it.each([
    [IPHONE, 'ios'],
    ['Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X)', 'ios'],
    [ANDROID, 'android'],
    ['Mozilla/5.0 (X11; Linux x86_64) Chrome/120', null],
  ])('%s is %s', (userAgent, device) => {
    expect(mobileDeviceOf(userAgent)).toBe(device);
  });

  it('iOS opens the app only', () => {
    vi.useFakeTimers();
    const assign = vi.fn();
    openMobileApp(`${SCHEME}home`, 'ios', mobileAppOf(FIRSTBANK)!, { assign, setTimeout: (run, ms) => globalThis.setTimeout(run, ms) });
    vi.advanceTimersByTime(10 * ANDROID_STORE_FALLBACK_MS);
    expect(assign.mock.calls).toEqual([[`${SCHEME}home`]]);
  });

  it('Android opens the app, then the configured store page after 250 ms (§9)', () => {
    vi.useFakeTimers();
    const assign = vi.fn();
    openMobileApp(`${SCHEME}home`, 'android', mobileAppOf(FIRSTBANK)!, { assign, setTimeout: (run, ms) => globalThis.setTimeout(run, ms) });
    vi.advanceTimersByTime(ANDROID_STORE_FALLBACK_MS - 1);
    expect(assign.mock.calls).toEqual([[`${SCHEME}home`]]);
    vi.advanceTimersByTime(1);
    expect(assign.mock.calls).toEqual([[`${SCHEME}home`], [STORE]]);
  });

  it('Android without a configured store page opens the app only', () => {
    vi.useFakeTimers();
    const assign = vi.fn();
    openMobileApp(`${SCHEME}home`, 'android', { scheme: SCHEME, androidStoreUrl: null }, { assign, setTimeout: (run, ms) => globalThis.setTimeout(run, ms) });
    vi.advanceTimersByTime(10 * ANDROID_STORE_FALLBACK_MS);
    expect(assign.mock.calls).toEqual([[`${SCHEME}home`]]);
  });
});

describe('§2 mobile deep link in the login-page guard (signed in, firstbank)', () => {
  function onLogin(returnUrl: string, userAgent: string, site: SiteConfig = FIRSTBANK) {
    const context: GuardContext = {
      route: 'login-form',
      auth: 'LOGGEDIN',
      site,
      locale: 'en_us',
      search: `?${new URLSearchParams({ returnurl: returnUrl }).toString()}`,
      flags: FEATURE_FLAGS,
      hasRegistrationData: false,
      hasPendingSignIn: false,
      hasNotificationInfo: false,
      device: mobileDeviceOf(userAgent),
      mfaEnrolled: false,
      userType: 'CARDHOLDER',
      actingForUser: false,
      passwordChangeRequired: false,
    };
    return decideRoute(context);
  }

  it('opens the app on iOS and Android', () => {
    expect(onLogin(`${SCHEME}offers`, IPHONE)).toEqual({ kind: 'open-app', url: `${SCHEME}offers`, device: 'ios', app: mobileAppOf(FIRSTBANK) });
    expect(onLogin(`${SCHEME}offers`, ANDROID)).toEqual({ kind: 'open-app', url: `${SCHEME}offers`, device: 'android', app: mobileAppOf(FIRSTBANK) });
  });

  it('a return URL without the scheme is a normal redirect to profile with the returnurl', () => {
    const returnUrl = '/firstbank/en_us/account/edit-pan';
    expect(onLogin(returnUrl, IPHONE)).toEqual({ kind: 'redirect', route: 'profile', search: `?${new URLSearchParams({ returnurl: returnUrl }).toString()}` });
  });

  it('another app’s scheme, a desktop browser, or a site without an app: never followed', () => {
    for (const decision of [
      onLogin('otherbank://offers', IPHONE),
      onLogin(`${SCHEME}offers`, 'Mozilla/5.0 (X11; Linux x86_64)'),
      onLogin(`${SCHEME}offers`, ANDROID, withoutApp(FIRSTBANK)),
    ]) {
      expect(decision).toMatchObject({ kind: 'redirect', route: 'profile' });
    }
  });
});
