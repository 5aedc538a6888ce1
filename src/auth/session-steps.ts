import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { gatewayApi } from '../api/gateway-api';
import type { TokenStorage } from '../app/browser-storage';
import { userAuthApi } from '../api/user-auth-api';
import type { CookieJar } from '../app/browser-cookies';
import type { FeatureFlags } from '../app/feature-flags';
import { notifyMobileApp, type FeatureEvent, type MobileBridgeHost } from '../app/mobile-bridge';
import { STORAGE } from '../app/storage-names';
import type { AuthEvent, UserType } from './auth-machine';
import { authEvent } from './auth-slice';
import { signInEnded } from './sign-in-slice';
import { rememberTrustedOtp } from './trusted-otp';

type AnyDispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

/** What starting and ending a session touches outside Redux; the browser's in the screens, fakes in tests. */
export interface SessionDeps {
  dispatch: AnyDispatch;
  cookies: CookieJar;
  localStore: TokenStorage;
  flags: Pick<FeatureFlags, 'sessionExtension'>;
  now: () => number;
  bridge?: MobileBridgeHost;
}

export interface SiteRef {
  siteId: string;
  locale: string;
}

/** §4: the machine's check, from what the browser holds now (the loaders ask the same way). */
export function authCheckRequested(site: SiteRef, cookies: CookieJar, localStore: TokenStorage): Extract<AuthEvent, { type: 'CHECK_REQUESTED' }> {
  return {
    type: 'CHECK_REQUESTED',
    siteId: site.siteId,
    locale: site.locale,
    authenticatedCookie: cookies.get(STORAGE.authenticatedCookie),
    userTypeCookie: cookies.get(STORAGE.userTypeCookie),
    hasRefreshToken: localStore.get(STORAGE.refreshToken) !== null,
  };
}

/**
 * After a 200 from `user-auth/login` (the gateway has set the session cookies, ADR 0008): §9
 * session_expiry when session extension is on, §4 otp_expiry when the device is now trusted, the
 * in-memory login data dropped, the §4 check run again, and the mobile app told (§3 feature event).
 */
export function finishSignIn(deps: SessionDeps, site: SiteRef, answer: { expiresIn: number; trustedDevice: boolean }): void {
  const nowMs = deps.now();
  if (deps.flags.sessionExtension) deps.localStore.set(STORAGE.sessionExpiry, String(Math.floor(nowMs / 1000) + answer.expiresIn));
  if (answer.trustedDevice) rememberTrustedOtp(deps.localStore, nowMs);
  deps.dispatch(signInEnded());
  deps.dispatch(authEvent(authCheckRequested(site, deps.cookies, deps.localStore)));
  notifyMobileApp('login', deps.bridge);
}

/**
 * The gateway already ended every session of the account (ADR 0021 "this wasn't me"): what this browser keeps of one
 * goes as at a sign-out (the readable sign-in marker, tokens, the OTP check, cached user data), with no revoke call
 * left to make, and the §4 check runs again (LOGGEDOUT). Should this browser hold another account's session, the page
 * only forgets it; the gateway ends it at this browser's next sign-in (ADR 0017, one session per browser).
 */
export function forgetEndedSession(deps: SessionDeps, site: SiteRef): void {
  if (deps.flags.sessionExtension) deps.localStore.remove(STORAGE.sessionExpiry);
  deps.localStore.remove(STORAGE.otpExpiry);
  for (const token of [STORAGE.accessToken, STORAGE.refreshToken]) deps.localStore.remove(token);
  deps.cookies.remove(STORAGE.authenticatedCookie);
  deps.dispatch(signInEnded());
  deps.dispatch(gatewayApi.util.resetApiState());
  deps.dispatch(authEvent(authCheckRequested(site, deps.cookies, deps.localStore)));
}

/**
 * SPEC §4 logout: revoke the token; clear session_expiry (session extension on) and the OTP check
 * storage; for a CONCIERGE the support and user-type cookies; tell the mobile bridge. The readable
 * sign-in marker goes too, so a failed revoke (network) cannot leave the page looking signed in;
 * cached user data is dropped and the §4 check runs again (LOGGEDOUT). After a deleted account the
 * bridge hears `deleteProfile` instead of `logout` (§3 feature events). On an SSO site (`sso`) the
 * answer is the identity provider's end-session URL, or null when there is none to visit.
 */
export async function signOut(
  deps: SessionDeps,
  site: SiteRef,
  userType: UserType,
  featureEvent: Extract<FeatureEvent, 'logout' | 'deleteProfile'> = 'logout',
  sso = false,
): Promise<string | null> {
  const revoke = { siteId: site.siteId, refreshToken: deps.localStore.get(STORAGE.refreshToken) };
  // §7: an SSO site signs out through the OIDC variant, whose answer says where the provider's session ends.
  const endSessionUrl = sso ? ((await deps.dispatch(userAuthApi.endpoints.oidcLogout.initiate(revoke))).data?.endSessionUrl ?? null) : null;
  if (!sso) await deps.dispatch(userAuthApi.endpoints.revokeTokens.initiate(revoke));
  if (deps.flags.sessionExtension) deps.localStore.remove(STORAGE.sessionExpiry);
  deps.localStore.remove(STORAGE.otpExpiry);
  for (const token of [STORAGE.accessToken, STORAGE.refreshToken]) deps.localStore.remove(token);
  const cookies = [STORAGE.authenticatedCookie, ...(userType === 'CONCIERGE' ? [STORAGE.supportDetailsCookie, STORAGE.userTypeCookie] : [])];
  for (const name of cookies) deps.cookies.remove(name);
  deps.dispatch(signInEnded());
  deps.dispatch(gatewayApi.util.resetApiState());
  deps.dispatch(authEvent(authCheckRequested(site, deps.cookies, deps.localStore)));
  notifyMobileApp(featureEvent, deps.bridge);
  return endSessionUrl;
}
