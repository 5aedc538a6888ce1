import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { localeRegion, type LocaleRegion } from '../../schemas/locales/locale-table';
import { ANALYTICS_TAGS } from './analytics-tags';
import { pushAnalyticsEvent } from './data-layer';
import { loadAnalyticsTag, remoteTagsEnabled } from './tag-loader';

/**
 * The root screen's analytics (SPEC §2, §3, §7): the region's tag configuration on the data layer
 * when the portal starts and whenever the locale's region changes, the remote tag only when the
 * build loads tags, and a virtual page view for every navigation after the first. Both remember
 * what they last told, so React's development double effects never tell it twice.
 */
export function useAnalytics(site: { siteId: string; locale: string }, env: Readonly<Record<string, unknown>> = import.meta.env): void {
  const { pathname, search } = useLocation();
  const region = localeRegion(site.locale);
  const page = `${pathname}${search}`;
  const loadTags = remoteTagsEnabled(env);
  const toldRegion = useRef<LocaleRegion | null>(null);
  const lastPage = useRef<string | null>(null);
  const current = useRef(site);
  // First of the hook's effects, so the two below read this render's site.
  useEffect(() => {
    current.current = site;
  });

  useEffect(() => {
    if (toldRegion.current === region) return;
    toldRegion.current = region;
    const tag = ANALYTICS_TAGS[region];
    pushAnalyticsEvent({ event: 'analyticsConfig', region, containerId: tag.containerId, siteId: current.current.siteId, locale: current.current.locale });
    if (loadTags) loadAnalyticsTag(tag);
  }, [region, loadTags]);

  useEffect(() => {
    const previous = lastPage.current;
    lastPage.current = page;
    if (previous === null || previous === page) return;
    pushAnalyticsEvent({ event: 'virtualPageView', page, siteId: current.current.siteId, locale: current.current.locale });
  }, [page]);
}
