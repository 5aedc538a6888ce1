// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import tagsFixture from '../../../fixtures/analytics/tags.json';
import { ANALYTICS_TAGS, parseAnalyticsTags } from '../../../src/analytics/analytics-tags';
import { dataLayer, pushAnalyticsEvent } from '../../../src/analytics/data-layer';
import { loadAnalyticsTag, remoteTagsEnabled } from '../../../src/analytics/tag-loader';
import { useAnalytics } from '../../../src/analytics/use-analytics';

afterEach(() => {
  cleanup();
  delete window.dataLayer;
  document.head.innerHTML = '';
});

const tagScripts = () => [...document.head.querySelectorAll('script[data-analytics-tag]')] as HTMLScriptElement[];

function Page({ env }: { env: Record<string, unknown> }) {
  const { issuer = '', locale = '' } = useParams();
  useAnalytics({ siteId: issuer, locale }, env);
  return null;
}

function renderAt(path: string, env: Record<string, unknown> = {}) {
  const router = createMemoryRouter([{ path: '/:issuer/:locale/account/:route', element: <Page env={env} /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

// SPEC §3 "regions … used to choose the analytics tag"; ADR 0013: bundled from fixtures/analytics/tags.json.
describe('the region tags', () => {
  it('has a tag for each of the five regions', () => {
    expect(Object.keys(ANALYTICS_TAGS).sort()).toEqual(['AP', 'CEMEA', 'Europe', 'LAC', 'NA']);
    expect(new Set(Object.values(ANALYTICS_TAGS).map((tag) => tag.containerId)).size).toBe(5);
  });

  it('refuses a fixture with a region missing or a script that is not https, naming the region', () => {
    const { AP: _dropped, ...withoutAp } = tagsFixture;
    expect(() => parseAnalyticsTags(withoutAp)).toThrow('Analytics tag of AP: containerId must look like GTM-XXXXXXX.');
    expect(() => parseAnalyticsTags({ ...tagsFixture, NA: { containerId: 'GTM-K7N2QX4', scriptUrl: 'http://tags.example/gtm.js' } })).toThrow(
      'Analytics tag of NA: scriptUrl must be an https URL.',
    );
  });
});

describe('the data layer', () => {
  it('is the window.dataLayer array, created on first use and kept', () => {
    expect(window.dataLayer).toBeUndefined();
    pushAnalyticsEvent({ event: 'virtualPageView', page: '/x', siteId: 'firstbank', locale: 'en_us' });
    const layer = dataLayer();
    expect(window.dataLayer).toBe(layer);
    expect(layer).toEqual([{ event: 'virtualPageView', page: '/x', siteId: 'firstbank', locale: 'en_us' }]);
  });
});

// SPEC §2 "A virtual page view event is emitted for every navigation after the first".
describe('useAnalytics', () => {
  it('tells the region tag once, then a page view for each later navigation, and loads no remote script by default', async () => {
    const router = renderAt('/dohabank/ar_qa/account/login');
    expect(window.dataLayer).toEqual([
      { event: 'analyticsConfig', region: 'CEMEA', containerId: ANALYTICS_TAGS.CEMEA.containerId, siteId: 'dohabank', locale: 'ar_qa' },
    ]);
    await act(() => router.navigate('/dohabank/ar_qa/account/registration?returnurl=x'));
    await act(() => router.navigate('/dohabank/en_qa/account/registration'));
    expect(window.dataLayer?.slice(1)).toEqual([
      { event: 'virtualPageView', page: '/dohabank/ar_qa/account/registration?returnurl=x', siteId: 'dohabank', locale: 'ar_qa' },
      { event: 'virtualPageView', page: '/dohabank/en_qa/account/registration', siteId: 'dohabank', locale: 'en_qa' },
    ]);
    expect(tagScripts()).toEqual([]);
  });

  it('tells the new tag when a navigation changes the region', async () => {
    const router = renderAt('/firstbank/en_us/account/login');
    await act(() => router.navigate('/bancosol/pt_br/account/login'));
    const configs = window.dataLayer?.filter((event) => (event as { event: string }).event === 'analyticsConfig');
    expect(configs?.map((event) => (event as { region: string }).region)).toEqual(['NA', 'LAC']);
  });

  it('loads the region tag from its host only when the build says so (VITE_ANALYTICS_TAGS=true)', () => {
    renderAt('/bancosol/pt_br/account/login', { VITE_ANALYTICS_TAGS: 'true' });
    expect(tagScripts().map((script) => script.src)).toEqual([ANALYTICS_TAGS.LAC.scriptUrl]);
    expect(window.dataLayer?.some((event) => (event as { event: string }).event === 'gtm.js')).toBe(true);
  });
});

describe('loadAnalyticsTag', () => {
  it('adds one script per page, whatever the region does afterwards', () => {
    expect(loadAnalyticsTag(ANALYTICS_TAGS.NA)).toBe(true);
    expect(loadAnalyticsTag(ANALYTICS_TAGS.Europe)).toBe(false);
    expect(tagScripts()).toHaveLength(1);
  });

  it.each([
    [{}, false],
    [{ VITE_ANALYTICS_TAGS: 'false' }, false],
    [{ VITE_ANALYTICS_TAGS: 'true' }, true],
  ])('remote tags with %j: %s', (env, enabled) => {
    expect(remoteTagsEnabled(env)).toBe(enabled);
  });
});
