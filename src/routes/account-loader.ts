import { redirect, replace, type LoaderFunctionArgs } from 'react-router-dom';
import type { SiteConfig } from '../../schemas/site-config/types';
import { cardsApi } from '../api/cards-api';
import { contentApi } from '../api/content-api';
import { offersApi } from '../api/offers-api';
import { BUNDLED_DEFAULT_SITE, siteConfigApi } from '../api/site-config-api';
import { userAttributeApi } from '../api/user-attribute-api';
import { userMgmtApi } from '../api/user-mgmt-api';
import { notificationShown } from '../app/alerts-slice';
import type { AppServices } from '../app/app-services';
import { FEATURE_FLAGS, type FeatureFlags } from '../app/feature-flags';
import { mobileDeviceOf, openMobileApp } from '../app/mobile-deep-link';
import { FALLBACK_ROUTE, type AccountRoute } from '../app/route-names';
import { STORAGE } from '../app/storage-names';
import { authStatusOf, isSettled, siteIdInState, userTypeInState, type AuthStatus } from '../auth/auth-machine';
import { authEvent } from '../auth/auth-slice';
import { authCheckRequested } from '../auth/session-steps';
import { DEFAULT_COMMON_TEXTS } from '../content/default-texts';
import { textOf } from '../content/texts';
import { resolveSite, type SiteLocation } from '../site/resolve-site';
import type { AppStore } from '../store';
import { decideRoute, isOffersPreferenceShown, type RedirectReason } from './route-guards';

/** Runs one RTK Query fetch for a loader and lets the cache keep the answer for the screen. */
async function preload<T>(subscription: { unwrap(): Promise<T>; unsubscribe(): void }): Promise<T | undefined> {
  try {
    return await subscription.unwrap();
  } catch {
    return undefined;
  } finally {
    subscription.unsubscribe();
  }
}

/** §4: starts the auth machine's check for this site unless it has settled or runs already, and waits for it to settle. */
function settledAuthStatus(store: AppStore, services: AppServices, site: SiteLocation): Promise<AuthStatus> {
  if (siteIdInState(store.getState().auth) !== site.siteId) {
    store.dispatch(authEvent(authCheckRequested(site, services.cookies, services.localStore)));
  }
  return new Promise((resolve) => {
    const settle = (): boolean => {
      const current = store.getState().auth;
      if (!isSettled(current)) return false;
      resolve(authStatusOf(current));
      return true;
    };
    if (settle()) return;
    const unsubscribe = store.subscribe(() => {
      if (settle()) unsubscribe();
    });
  });
}

/**
 * Content groups every screen reads: the shell's, and the refusal texts' (screens/shared/use-refusal-text.ts), so a
 * page the server rendered asks for no text after it loads (ADR 0024).
 */
const SHELL_CONTENT_GROUPS = ['common', 'errors', 'signIn', 'account'] as const;

/** Content groups a screen reads beyond the shell's, fetched before it renders (no flash of default texts). */
const SCREEN_CONTENT_GROUPS: Partial<Record<AccountRoute, readonly string[]>> = {
  // The carousel's slides (SPEC §3 cms) show on sign-in and registration.
  login: ['signIn', 'form', 'carousel'],
  'login-form': ['signIn', 'form', 'carousel'],
  'login-otp': ['signIn', 'form'],
  'login-otp-preference': ['signIn'],
  'otp-check-preference': ['signIn'],
  'otp-check-passcode': ['signIn', 'form'],
  'mfa-setup': ['signIn', 'form'],
  logout: ['signIn'],
  registration: ['account', 'form', 'optins', 'carousel'],
  'add-pan': ['account', 'form'],
  'edit-pan': ['cards'],
  activate: ['account', 'form'],
  'resend-activation': ['account', 'form'],
  recovery: ['account', 'form'],
  'passcode-preference': ['account'],
  passcode: ['account', 'form'],
  'reset-password': ['account', 'form'],
  'secure-account': ['account'],
  password: ['account', 'form'],
  'compromised-credentials': ['account', 'form'],
  'delete-profile': ['account', 'form'],
  profile: ['profile', 'form', 'optins', 'cards'],
  'edit-profile': ['profile', 'form'],
  'site-settings': ['profile', 'form'],
  'cashback-statement': ['profile', 'cards'],
  concierge: ['concierge'],
  'signed-in-devices': ['profile'],
  'redirect-sso': ['sso'],
  'sso-simulator': ['sso'],
};

/** The screens that show the offer categories (SPEC §3 offers_preference); no other route asks for them. */
const OFFER_CATEGORY_ROUTES: ReadonlySet<AccountRoute> = new Set<AccountRoute>(['registration', 'profile', 'site-settings']);

/**
 * SPEC §2 preloaded data, before a route renders: site configuration, content, auth state, and
 * for a signed-in visitor user data, user site attributes and assets; the offers list only when
 * the site shows offers_preference, on the screens that show it.
 */
async function preloadAccountData(
  store: AppStore,
  services: AppServices,
  site: SiteLocation,
  route: AccountRoute,
): Promise<{ config: SiteConfig; auth: AuthStatus; mfaEnrolled: boolean; actingForUser: boolean; passwordChangeRequired: boolean }> {
  const { siteId, locale } = site;
  const contentGroups = [...new Set([...SHELL_CONTENT_GROUPS, ...(SCREEN_CONTENT_GROUPS[route] ?? [])])];
  const [config, auth] = await Promise.all([
    preload(store.dispatch(siteConfigApi.endpoints.getSiteConfig.initiate(siteId))),
    settledAuthStatus(store, services, site),
    ...contentGroups.map((contentType) => preload(store.dispatch(contentApi.endpoints.getContent.initiate({ siteId, locale, contentType })))),
  ]);
  // The query answers the default site for a failed read itself (site-config-api.ts); this covers one that threw.
  const siteConfig = config ?? BUNDLED_DEFAULT_SITE;
  const concierge = userTypeInState(store.getState().auth) === 'CONCIERGE';
  const [profile] = await Promise.all([
    auth === 'LOGGEDOUT' ? undefined : preload(store.dispatch(userMgmtApi.endpoints.getProfile.initiate({ siteId, concierge }))),
    ...(auth === 'LOGGEDOUT'
      ? []
      : [
          preload(store.dispatch(userAttributeApi.endpoints.getUserSiteRecord.initiate({ siteId, concierge }))),
          preload(store.dispatch(cardsApi.endpoints.getCards.initiate(siteId))),
        ]),
    ...(OFFER_CATEGORY_ROUTES.has(route) && isOffersPreferenceShown(siteConfig)
      ? [preload(store.dispatch(offersApi.endpoints.getOfferCategories.initiate({ siteId, locale })))]
      : []),
  ]);
  // ADR 0014: find-concierge answers (not null) once the agent has chosen the card holder to act for.
  return {
    config: siteConfig,
    auth,
    mfaEnrolled: profile?.mfaEnrollmentStatus === 'ENROLLED',
    actingForUser: concierge && profile != null,
    // ADR 0009: the gateway holds an account that signed in with a breached password until it replaces it.
    passwordChangeRequired: store.getState().passwordChange.required,
  };
}

/**
 * §2 login-otp-preference "needs login data and notification info": where the passcode can go, for
 * the person whose sign-in waits (the gateway answers only for that pending sign-in, ADR 0008).
 */
async function hasNotificationInfo(store: AppStore, route: AccountRoute): Promise<boolean> {
  const pending = store.getState().signIn.pending;
  if (route !== 'login-otp-preference' || pending === null) return false;
  const info = await preload(
    store.dispatch(
      userMgmtApi.endpoints.getPreferenceDetails.initiate({ siteId: pending.siteId, primaryUserIdentifier: pending.username }, { forceRefetch: true }),
    ),
  );
  return info !== undefined;
}

/**
 * ADR 0014: a support agent sent away from a card holder's own screen (password, two-step verification, deletion,
 * signed-in devices) reads why on the page they land on, naming the screen refused, instead of being sent back
 * without a word. The common texts are the ones the loader has just preloaded.
 */
async function sayWhyRedirected(store: AppStore, site: SiteLocation, route: AccountRoute, reason: RedirectReason, to: AccountRoute): Promise<void> {
  const common = await preload(store.dispatch(contentApi.endpoints.getContent.initiate({ siteId: site.siteId, locale: site.locale, contentType: 'common' })));
  const page = textOf(common, `title.${route}`, DEFAULT_COMMON_TEXTS[`title.${route}`] ?? route);
  const key = `notice.${reason}`;
  // Sent back to the page already shown, the notice is that page's; else it is for the page the redirect opens.
  const lifetime = store.getState().alerts.page === `${site.basePath}${to}` ? 'page' : 'next-page';
  store.dispatch(notificationShown({ id: key, kind: 'info', message: textOf(common, key, DEFAULT_COMMON_TEXTS[key] ?? '', { page }), lifetime }));
}

function routeUrl(site: SiteLocation, route: AccountRoute, search: string): string {
  return `${site.basePath}${route}${search}`;
}

export interface AccountLoaderOptions {
  store: AppStore;
  services: AppServices;
  flags?: Readonly<FeatureFlags>;
}

/**
 * The loader of every account route: strips a trailing slash (§2), preloads §2's data, then
 * applies the route's guards, redirecting before anything renders.
 */
export function accountRouteLoader(route: AccountRoute, options: AccountLoaderOptions) {
  const { store, services, flags = FEATURE_FLAGS } = options;
  const userAgent = services.userAgent ?? (() => navigator.userAgent);
  const openApp = services.openApp ?? openMobileApp;
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const url = new URL(request.url);
    if (url.pathname.endsWith('/')) throw redirect(`${url.pathname.replace(/\/+$/, '')}${url.search}`);
    const site = resolveSite({ host: url.host, pathname: url.pathname, search: url.search });
    const { config, auth, mfaEnrolled, actingForUser, passwordChangeRequired } = await preloadAccountData(store, services, site, route);
    const decision = decideRoute({
      route,
      auth,
      site: config,
      locale: site.locale,
      search: url.search,
      flags,
      hasRegistrationData: store.getState().registration.data !== null,
      hasPendingSignIn: store.getState().signIn.pending !== null,
      hasNotificationInfo: await hasNotificationInfo(store, route),
      mfaEnrolled,
      userType: userTypeInState(store.getState().auth),
      actingForUser,
      passwordChangeRequired,
      device: mobileDeviceOf(userAgent()),
    });
    if (decision.kind === 'redirect') {
      if (decision.reason !== undefined) await sayWhyRedirected(store, site, route, decision.reason, decision.route);
      // The guarded page takes no place in the history: a Back that returned to it would only be sent on again, and
      // the person could never go Back past it (ADR 0019 "Flow steps": Back and Forward keep a flow's steps).
      throw replace(routeUrl(site, decision.route, decision.search));
    }
    if (decision.kind === 'open-app') openApp(decision.url, decision.device, decision.app);
    else if (decision.clearOtpExpiry) services.localStore.remove(STORAGE.otpExpiry);
    return null;
  };
}

/** §2: any unknown route (and a bare `account/`) redirects to login-form, keeping the query. */
export function unknownRouteLoader({ request }: LoaderFunctionArgs): never {
  const url = new URL(request.url);
  const site = resolveSite({ host: url.host, pathname: url.pathname, search: url.search });
  throw redirect(routeUrl(site, FALLBACK_ROUTE, url.search));
}
