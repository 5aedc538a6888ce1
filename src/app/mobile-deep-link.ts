/**
 * SPEC §2 mobile deep link: a return URL with the app's scheme, on iOS or Android, opens the
 * native app; Android falls back to the store page after 250 ms (§9) when the app is not installed.
 */
export const MOBILE_APP = {
  scheme: 'rewardsportal://',
  androidStoreUrl: 'https://play.google.com/store/apps/details?id=com.example.rewardsportal',
} as const;
export const ANDROID_STORE_FALLBACK_MS = 250;

export type MobileDevice = 'ios' | 'android';

/** §3 device types ios, android; null for anything else. */
export function mobileDeviceOf(userAgent: string): MobileDevice | null {
  if (/android/i.test(userAgent)) return 'android';
  if (/iphone|ipad|ipod/i.test(userAgent)) return 'ios';
  return null;
}

export function isAppDeepLink(url: string | null): url is string {
  return url !== null && url.toLowerCase().startsWith(MOBILE_APP.scheme);
}

export function openMobileApp(
  url: string,
  device: MobileDevice,
  browser: { assign(url: string): void; setTimeout(run: () => void, ms: number): unknown } = {
    assign: (target) => window.location.assign(target),
    setTimeout: (run, ms) => window.setTimeout(run, ms),
  },
): void {
  browser.assign(url);
  if (device === 'android') browser.setTimeout(() => browser.assign(MOBILE_APP.androidStoreUrl), ANDROID_STORE_FALLBACK_MS);
}
