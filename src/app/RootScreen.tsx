import { lazy, Suspense, useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Outlet, ScrollRestoration, useLocation, useNavigate, useNavigation, type Location } from 'react-router-dom';
import { useAnalytics } from '../analytics/use-analytics';
import { useGetContentQuery } from '../api/content-api';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { textOf } from '../content/texts';
import { DEFAULT_COMMON_TEXTS } from '../content/default-texts';
import { useContentTexts } from '../content/use-content-texts';
import { localeDirection, localeToLanguageTag } from '../../schemas/locales/locale-table';
import { siteThemeOf } from '../../schemas/site-config/site-brand';
import { ConciergeBanner } from '../screens/concierge/ConciergeBanner';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { alertsClosed, notificationShown } from './alerts-slice';
import { NotificationAlerts } from './NotificationAlerts';
import { useDocumentHead } from './page-context';
import { readEntryQuery, searchWithoutNotice } from './entry-query';
import { rememberMobileSession } from './mobile-bridge';
import { SiteBrandMark, siteBrandStylesheetOf } from './SiteBrandMark';
import { pageTitle } from './page-title';
import { ScreenTitleProvider, useRouteTitle, useScreenTitleHolder } from './screen-title';
import { STORAGE } from './storage-names';

/** Its own chunk, loaded once someone is signed in on this site: no guest page pays for it (ADR 0016). */
const AccountMenu = lazy(() => import('./AccountMenu'));

/**
 * SPEC §2 returnurl (stored only when valid, selectedCause appended), editPw (password-updated notice, shown once: the
 * flag is then taken out of the address in place) and §1 isMobile.
 */
function useEntryQuery(): void {
  const location: Location<unknown> = useLocation();
  const { pathname, search, hash, state } = location;
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const { siteId, locale } = useSiteLocation();
  const commonContent = useGetContentQuery({ siteId, locale, contentType: 'common' });
  // The notice is drawn in the site's words first: the flag goes once the content has answered (or failed).
  const contentSettled = commonContent.isSuccess || commonContent.isError;
  const common = useContentTexts('common');
  useEffect(() => {
    rememberMobileSession(search);
    const entry = readEntryQuery(search, window.location.origin);
    if (entry.returnUrl !== null) window.sessionStorage.setItem(STORAGE.returnUrl, entry.returnUrl);
    if (entry.passwordUpdated) {
      dispatch(
        notificationShown({
          id: 'password-updated',
          kind: 'success',
          message: textOf(common, 'notice.passwordUpdated', DEFAULT_COMMON_TEXTS['notice.passwordUpdated'] ?? ''),
        }),
      );
    }
    const consumed = contentSettled ? searchWithoutNotice(search) : null;
    if (consumed !== null) void navigate({ pathname, search: consumed, hash }, { replace: true, state });
  }, [pathname, search, hash, state, navigate, dispatch, common, contentSettled]);
}

function GlobalErrorAlert() {
  const globalError = useSelector((state: RootState) => state.alerts.globalError);
  const errors = useContentTexts('errors');
  const common = useContentTexts('common');
  const dispatch = useDispatch();
  if (globalError === null) return null;
  // §8: the content-managed text with the server reference (X-CID) in its placeholder.
  const message = textOf(errors, 'global', 'Looks like something went wrong. Reference: {{reference}}', { reference: globalError.reference ?? '' });
  return (
    <div className="alert alert--error" role="alert">
      <span className="alert__icon" aria-hidden="true">
        ⚠
      </span>
      <p className="alert__message">{message}</p>
      <button type="button" className="alert__close" aria-label={textOf(common, 'alert.close', 'Close alert')} onClick={() => dispatch(alertsClosed())}>
        ×
      </button>
    </div>
  );
}

function LoadingOverlay({ label }: { label: string }) {
  return (
    <div className="loading-overlay" role="progressbar" aria-label={label} aria-busy="true">
      <span className="loading-overlay__spinner" aria-hidden="true" />
    </div>
  );
}

/**
 * SPEC §2 root screen, the frame of every account route: the screen-reader page-title region,
 * the global error alert, notification alerts, the routed screen and the full-screen loading
 * overlay. Sets the page title (brand - title - brand), `lang` and `dir` from the locale, the
 * theme, and tells analytics (src/analytics) the region's tag and every later page view.
 */
export function RootScreen() {
  const location = useSiteLocation();
  const navigation = useNavigation();
  const site = useGetSiteConfigQuery(location.siteId);
  const common = useContentTexts('common');

  const programmeBrand = textOf(common, 'brand', 'Rewards Portal');
  const siteBrand = site.data?.name ?? '';
  const titleOf = useRouteTitle();
  // The tab names the screen shown (its heading, screen-title.tsx), else its route.
  const { screenTitle, setScreenTitle } = useScreenTitleHolder();
  const routeTitle = screenTitle ?? (location.route ? titleOf(location.route) : '');
  const title = pageTitle(siteBrand, routeTitle, programmeBrand);
  const theme = siteThemeOf(site.data);
  const signedInHere = useSelector((state: RootState) => state.auth.name === 'LOGGEDIN' && state.auth.siteId === location.siteId);

  useDocumentHead({
    lang: localeToLanguageTag(location.locale),
    dir: localeDirection(location.locale),
    title,
    theme,
    siteId: location.siteId,
    stylesheet: siteBrandStylesheetOf(site.data),
  });
  useAnalytics(location);
  useEntryQuery();

  return (
    <div className="shell">
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-region="page-title">
        {title}
      </div>
      <header className="shell__header">
        <SiteBrandMark site={site.data} name={siteBrand || programmeBrand} />
        {signedInHere && (
          <Suspense fallback={null}>
            <AccountMenu />
          </Suspense>
        )}
      </header>
      {/* data-route names the screen drawn in this commit: the address bar changes before it. */}
      <main className="shell__main" data-route={location.route ?? ''}>
        <ConciergeBanner />
        <GlobalErrorAlert />
        <NotificationAlerts />
        <ScreenTitleProvider value={setScreenTitle}>
          <Outlet />
        </ScreenTitleProvider>
      </main>
      {navigation.state !== 'idle' && <LoadingOverlay label={textOf(common, 'loading', 'Loading…')} />}
      <ScrollRestoration />
    </div>
  );
}

/** Shown while the first route's data loads (react-router's hydrate fallback). */
export function FirstLoadOverlay() {
  return <LoadingOverlay label={textOf(useContentTexts('common'), 'loading', 'Loading…')} />;
}
