import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { useGetContentQuery } from '../api/content-api';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { DEFAULT_COMMON_TEXTS } from '../content/default-texts';
import { textOf } from '../content/texts';
import { localeToLanguageTag } from '../site/locale-tag';
import { useSiteLocation } from '../site/use-site-location';
import { pageTitle } from './page-title';
import { FALLBACK_ROUTE } from './route-names';

/**
 * The frame every account route renders in: resolves the site (SPEC §1), loads its configuration
 * and content (SPEC §2 "Site configuration is resolved for all routes"), and sets the page language,
 * title and theme. Screens fill the main region in later issues.
 */
export function AccountShell() {
  const location = useSiteLocation();
  const site = useGetSiteConfigQuery(location.siteId);
  const content = useGetContentQuery({ siteId: location.siteId, locale: location.locale, contentType: 'common' });
  const texts = content.isError ? DEFAULT_COMMON_TEXTS : content.data;

  const programmeBrand = textOf(texts, 'brand', 'Rewards Portal');
  const siteBrand = site.data?.name ?? '';
  const routeTitle = location.route ? textOf(texts, `title.${location.route}`, '') : '';
  const theme = site.data?.theme ?? 'classic';

  useEffect(() => {
    document.documentElement.lang = localeToLanguageTag(location.locale);
  }, [location.locale]);

  useEffect(() => {
    document.title = pageTitle(siteBrand, routeTitle, programmeBrand);
  }, [siteBrand, routeTitle, programmeBrand]);

  useEffect(() => {
    document.body.dataset.theme = theme;
    document.body.dataset.siteId = location.siteId;
  }, [theme, location.siteId]);

  // SPEC §2: any unknown route redirects to login (login-form in client-server mode).
  if (location.route === null) {
    return <Navigate to={`${location.basePath}${FALLBACK_ROUTE}${window.location.search}`} replace />;
  }

  const loading = site.isLoading || content.isLoading;
  return (
    <div className="shell">
      <header className="shell__header">
        <span className="shell__brand">{siteBrand || programmeBrand}</span>
      </header>
      <main className="shell__main" aria-busy={loading}>
        <h1 className="shell__title">{routeTitle}</h1>
      </main>
    </div>
  );
}
