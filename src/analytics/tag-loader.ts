import type { AnalyticsTag } from './analytics-tags';
import { pushAnalyticsEvent } from './data-layer';

/**
 * Remote tag loading, only when the build asks for it (VITE_ANALYTICS_TAGS=true, ADR 0013): never in
 * development or tests. The gateway's CSP must then list the tag's host (ANALYTICS_TAG_HOSTS).
 * One script per page, even when the region changes (a tag manager cannot be unloaded).
 */
export function loadAnalyticsTag(tag: AnalyticsTag, win: Window = window): boolean {
  const doc = win.document;
  if (doc.querySelector('script[data-analytics-tag]')) return false;
  pushAnalyticsEvent({ event: 'gtm.js', 'gtm.start': Date.now() }, win);
  const script = doc.createElement('script');
  script.src = tag.scriptUrl;
  script.async = true;
  script.dataset.analyticsTag = tag.containerId;
  doc.head.append(script);
  return true;
}

/** Whether this build loads remote tags: only with VITE_ANALYTICS_TAGS=true. */
export function remoteTagsEnabled(env: Readonly<Record<string, unknown>>): boolean {
  return env.VITE_ANALYTICS_TAGS === 'true';
}
