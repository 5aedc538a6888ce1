import { createBrowserRouter, redirect, type RouteObject } from 'react-router-dom';
import type { AppServices } from './app/app-services';
import { FirstLoadOverlay, RootScreen } from './app/RootScreen';
import { ACCOUNT_ROUTES, FALLBACK_ROUTE } from './app/route-names';
import { accountRouteLoader, unknownRouteLoader } from './routes/account-loader';
import { SCREEN_MODULES } from './screens/screen-modules';
import { DEFAULT_LOCALE } from './site/resolve-site';
import type { AppStore } from './store';

/** The site gallery, only in development or with VITE_SITE_GALLERY=true; its code is its own chunk. */
const galleryEnabled = import.meta.env.DEV || import.meta.env.VITE_SITE_GALLERY === 'true';
/** The site studio (docs/decisions/0027-site-studio.md), only in development or with VITE_SITE_STUDIO=true (`npm run studio` builds so). */
const studioEnabled = import.meta.env.DEV || import.meta.env.VITE_SITE_STUDIO === 'true';

/** Every route of SPEC §2 under one account base, each guarded by its loader and lazily loaded. */
function accountChildren(options: { store: AppStore; services: AppServices }): RouteObject[] {
  return [
    ...ACCOUNT_ROUTES.map((route): RouteObject => ({ path: route, loader: accountRouteLoader(route, options), lazy: SCREEN_MODULES[route] })),
    { index: true, loader: unknownRouteLoader },
    { path: '*', loader: unknownRouteLoader },
  ];
}

/** The portal's routes, for the browser's router and the server renderer's static handler (ADR 0024). */
export function portalRoutes(store: AppStore, services: AppServices): RouteObject[] {
  const account = (path: string): RouteObject => ({
    path,
    Component: RootScreen,
    HydrateFallback: FirstLoadOverlay,
    children: accountChildren({ store, services }),
  });
  return [
    // SPEC §2 base paths: /{issuer}/{locale}/account/ and /{locale}/account/.
    account('/:issuer/:locale/account'),
    account('/:locale/account'),
    ...(galleryEnabled ? [{ path: '/gallery/*', lazy: () => import('./gallery/SiteGallery') }] : []),
    ...(studioEnabled ? [{ path: '/studio/*', lazy: () => import('./studio/SiteStudio') }] : []),
    { path: '*', loader: () => redirect(`/${DEFAULT_LOCALE}/account/${FALLBACK_ROUTE}`) },
  ];
}

/** The browser's router over the portal's routes. */
export function createPortalRouter(store: AppStore, services: AppServices) {
  return createBrowserRouter(portalRoutes(store, services));
}
