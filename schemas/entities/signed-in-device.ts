/**
 * What the holder's list of signed-in devices names a device by (docs/decisions/0025-fresh-proof.md "Sessions the
 * holder can see"): one of these browsers and systems, read from the User-Agent at sign-in by the gateway
 * (gateway/auth/session-device.ts), or null. One list for the gateway that records them, the contract that answers
 * them and the app that writes "Chrome on Android" in the page's language. Proper names, never translated.
 */
export const BROWSERS = ['Edge', 'Opera', 'Samsung Internet', 'Firefox', 'Chrome', 'Safari'] as const;
export const OPERATING_SYSTEMS = ['Windows', 'Android', 'iOS', 'iPadOS', 'macOS', 'ChromeOS', 'Linux'] as const;
export type BrowserName = (typeof BROWSERS)[number];
export type OperatingSystemName = (typeof OPERATING_SYSTEMS)[number];
