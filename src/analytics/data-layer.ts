import type { LocaleRegion } from '../../schemas/locales/locale-table';

/**
 * The analytics data layer (SPEC §2 virtual page views, §7 "analytics tag scripts load by region"):
 * the `window.dataLayer` array a tag manager reads, owned here so every push has a known shape.
 * Without a remote tag (development, tests, any build that does not load tags) the events still
 * land in the array, where tests and the browser's console can read them.
 */
export type AnalyticsEvent =
  /** The region's tag, pushed when the portal starts and whenever the region changes. */
  | { event: 'analyticsConfig'; region: LocaleRegion; containerId: string; siteId: string; locale: string }
  /** SPEC §2: every navigation after the first (the tag counts the first page itself). */
  | { event: 'virtualPageView'; page: string; siteId: string; locale: string }
  /** What a tag manager's own snippet pushes before its script runs; pushed here instead of an inline script (CSP). */
  | { event: 'gtm.js'; 'gtm.start': number };

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

export function dataLayer(win: Window = window): unknown[] {
  win.dataLayer ??= [];
  return win.dataLayer;
}

export function pushAnalyticsEvent(event: AnalyticsEvent, win: Window = window): void {
  dataLayer(win).push(event);
}
