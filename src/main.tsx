import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';
import { SERVER_PAGE_DATA_ID } from '../schemas/pages/server-page';
import { portalRoutes } from './App';
import { readRegistrationDraft } from './account/form-drafts';
import type { AppServices } from './app/app-services';
import { documentCookieJar } from './app/browser-cookies';
import { configuredCaptchaProvider } from './captcha/configured-captcha';
import { browserLocalStorage } from './app/browser-storage';
import { FEATURE_FLAGS } from './app/feature-flags';
import { isLeavingDocument } from './app/leave-document';
import { authCheckRequested } from './auth/session-steps';
import { signInRoute } from './routes/route-guards';
import { authCheckInputsOf, sameAuthCheckInputs, type ServerPageData } from './server/server-page-data';
import { resolveSite } from './site/resolve-site';
import { createStore } from './store';
import './styles/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render the portal into.');

const services: AppServices = {
  cookies: documentCookieJar(),
  localStore: browserLocalStorage(),
  captcha: configuredCaptchaProvider(import.meta.env.VITE_HCAPTCHA_SITE_KEY, () => document.documentElement.lang),
  // §4: to the sign-in route of the current site, keeping the query; a full reload unless told otherwise.
  // Not once the page is leaving for another document (app/leave-document.ts).
  goToSignIn: (reload) => {
    if (isLeavingDocument()) return;
    const { basePath } = resolveSite({ host: window.location.host, pathname: window.location.pathname, search: window.location.search });
    const target = `${basePath}${signInRoute(FEATURE_FLAGS)}${window.location.search}`;
    if (reload) window.location.assign(target);
    else void router.navigate(target);
  },
};

/** The server's data for this page (ADR 0024), or null when the page was not rendered on the server. */
function serverPageData(): ServerPageData | null {
  const block = document.getElementById(SERVER_PAGE_DATA_ID);
  if (block === null) return null;
  try {
    return JSON.parse(block.textContent) as ServerPageData;
  } catch {
    return null;
  }
}

/**
 * ADR 0024: the browser takes over the server's markup only when its first render would draw the same screen: the
 * same §4 check (a refresh token in local storage, or a cookie changed since, means another first screen) and no
 * registration draft kept in this tab (the server has none to draw). Else it renders afresh.
 */
function hydratableData(): ServerPageData | null {
  const data = serverPageData();
  if (data === null) return null;
  const site = resolveSite({ host: window.location.host, pathname: window.location.pathname, search: window.location.search });
  const check = authCheckInputsOf(authCheckRequested(site, services.cookies, services.localStore));
  if (!sameAuthCheckInputs(check, data.authCheck)) return null;
  if (site.route === 'registration' && readRegistrationDraft(site.siteId) !== null) return null;
  for (const name of data.browserEffects.removedCookies) services.cookies.remove(name);
  for (const key of data.browserEffects.removedStorage) services.localStore.remove(key);
  return data;
}

/** The matched routes' code, loaded before hydrating, so the first render draws what the server drew. */
async function loadMatchedRoutes(routes: RouteObject[]): Promise<void> {
  const lazyMatches = (matchRoutes(routes, window.location) ?? []).filter((match) => match.route.lazy !== undefined);
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      const load = route.lazy as () => Promise<Partial<RouteObject>>;
      Object.assign(route, { ...(await load()), lazy: undefined });
    }),
  );
}

const serverData = hydratableData();
const store = createStore(services, undefined, serverData?.store);
// Taking in the server's cache and starting the router are a task each: together they were one long task at the start
// of a server page (README "Benchmark" total blocking time; the entry's other steps are in src/boot.ts).
if (serverData !== null) await new Promise((resolve) => setTimeout(resolve, 0));
const routes = portalRoutes(store, services);
if (serverData !== null) await loadMatchedRoutes(routes);
const router = createBrowserRouter(routes, serverData !== null ? { hydrationData: serverData.router } : undefined);
const app = (
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>
);

if (serverData !== null) {
  // A transition: the hydration yields to the browser between pieces, so scrolling and a click stay responsive (a
  // click on a part not yet hydrated hydrates it first, then runs).
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  createRoot(container).render(app);
}
