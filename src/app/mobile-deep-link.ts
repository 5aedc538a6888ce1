import { featureConfigOf, type SiteConfig } from '../../schemas/site-config/types';

/**
 * SPEC §2 mobile deep link: a return URL with the app's scheme, on iOS or Android, opens the
 * native app; Android falls back to the store page after 250 ms (§9) when the app is not installed.
 * The scheme and the store page are the site's `mobile_app` settings (ADR 0001); a site without
 * an `app_scheme` has no app, and no return URL opens one.
 */
export const ANDROID_STORE_FALLBACK_MS = 250;

export type MobileDevice = 'ios' | 'android';

export interface MobileApp {
  /** e.g. `firstbankrewards://`, lowercase, as sites:check accepts it. */
  scheme: string;
  /** The app's store page for Android; none means no fallback. */
  androidStoreUrl: string | null;
}

/** The site's app, or null when it configures none. */
export function mobileAppOf(site: SiteConfig): MobileApp | null {
  const settings = featureConfigOf(site, 'mobile_app');
  const scheme = settings.app_scheme;
  if (scheme === undefined || scheme === '') return null;
  return { scheme: scheme.toLowerCase(), androidStoreUrl: settings.android_store_url ?? null };
}

/** §3 device types ios, android; null for anything else. */
export function mobileDeviceOf(userAgent: string): MobileDevice | null {
  if (/android/i.test(userAgent)) return 'android';
  if (/iphone|ipad|ipod/i.test(userAgent)) return 'ios';
  return null;
}

/** A return URL for this site's app: its scheme, and only its (another app's scheme is never followed). */
export function isAppDeepLink(url: string | null, app: MobileApp | null): url is string {
  return url !== null && app !== null && url.toLowerCase().startsWith(app.scheme);
}

export function openMobileApp(
  url: string,
  device: MobileDevice,
  app: MobileApp,
  browser: { assign(url: string): void; setTimeout(run: () => void, ms: number): unknown } = {
    assign: (target) => window.location.assign(target),
    setTimeout: (run, ms) => window.setTimeout(run, ms),
  },
): void {
  browser.assign(url);
  const storeUrl = app.androidStoreUrl;
  if (device === 'android' && storeUrl !== null) browser.setTimeout(() => browser.assign(storeUrl), ANDROID_STORE_FALLBACK_MS);
}
