/**
 * SPEC §4 "Auth state" as one explicit state machine: a pure `transition(state, event)` that
 * answers the next state and the effects to run (gateway calls, cookies, navigation). The
 * effect runner (auth-effects.ts) performs the effects and feeds their outcome back as events.
 *
 *   UNCHECKED ──CHECK_REQUESTED──▶ CHECKING (authenticated cookie "true") ──answered──▶ LOGGEDIN | LOGGEDIN-INACTIVE
 *                                   │  USER_NOT_FOUND ─▶ SAVING_SITE_LOCALE ─▶ CHECKING (once)
 *                                   │  other error / no cookie ─▶ REFRESHING (refresh token, once) ─▶ CHECKING
 *                                   └────────────────────────────▶ LOGGEDOUT
 *   any ──AUTHENTICATION_FAILED──▶ LOGGEDOUT (clear session cookies, go to sign-in)
 */
export type AuthStatus = 'LOGGEDOUT' | 'LOGGEDIN-INACTIVE' | 'LOGGEDIN';
export type UserType = 'CONCIERGE' | 'CARDHOLDER';
/** §4 token type, from the authenticated cookie. */
export type TokenType = 'none' | 'signed-in' | 'pre-auth';

/** One run of the §4 check for a site; the flags stop each retry from happening twice. */
export interface AuthCheck {
  siteId: string;
  locale: string;
  userType: UserType;
  hasRefreshToken: boolean;
  siteLocaleSaved: boolean;
  refreshTried: boolean;
}

export type AuthState =
  | { name: 'UNCHECKED' }
  | { name: 'CHECKING'; check: AuthCheck }
  | { name: 'SAVING_SITE_LOCALE'; check: AuthCheck }
  | { name: 'REFRESHING'; check: AuthCheck }
  | { name: 'LOGGEDOUT'; siteId: string | null }
  | { name: 'LOGGEDIN-INACTIVE'; siteId: string; userType: UserType }
  | { name: 'LOGGEDIN'; siteId: string; userType: UserType };

export type AuthEvent =
  | {
      type: 'CHECK_REQUESTED';
      siteId: string;
      locale: string;
      authenticatedCookie: string | undefined;
      userTypeCookie: string | undefined;
      hasRefreshToken: boolean;
    }
  // Outcomes of effects name their site: an answer for a check that was replaced is ignored.
  | { type: 'BACKGROUND_CHECK_ANSWERED'; siteId: string; passesBackgroundCheck: boolean }
  | { type: 'BACKGROUND_CHECK_FAILED'; siteId: string; code: string }
  | { type: 'SITE_LOCALE_SAVED'; siteId: string }
  | { type: 'SITE_LOCALE_SAVE_FAILED'; siteId: string }
  | { type: 'REFRESH_SUCCEEDED'; siteId: string }
  | { type: 'REFRESH_FAILED'; siteId: string }
  /** A token arrived (sign-in outside client-server mode): §4's alternative check and user-type cookie. */
  | { type: 'TOKEN_RECEIVED'; siteId: string; authorities: readonly string[]; exp: number }
  | { type: 'AUTHENTICATION_FAILED'; code: string };

export type AuthEffect =
  | { type: 'CALL_BACKGROUND_CHECK'; siteId: string }
  | { type: 'SAVE_SITE_LOCALE'; siteId: string; locale: string }
  | { type: 'REFRESH_TOKEN'; siteId: string }
  | { type: 'REMOVE_REFRESH_TOKEN' }
  | { type: 'STORE_USER_TYPE'; userType: UserType; expiresAt: number }
  /** §8: the session cookies, plus the support-details cookie in concierge mode. */
  | { type: 'CLEAR_SESSION_COOKIES'; concierge: boolean }
  /** §4: to the sign-in route keeping the query; a full reload unless the error asks for a next step. */
  | { type: 'GO_TO_SIGN_IN'; reload: boolean };

export interface Transition {
  state: AuthState;
  effects: AuthEffect[];
}

export const INITIAL_AUTH_STATE: AuthState = { name: 'UNCHECKED' };

/** §4: errors that lead to a next sign-in step rather than a fresh page. */
export const NO_RELOAD_ERROR_CODES: ReadonlySet<string> = new Set([
  'MFA_OTP_REQUIRED',
  'OTP_REQUIRED_EMAIL',
  'OTP_REQUIRED_PHONE',
  'OTP_REQUIRED',
  'USER_LOCKED',
  'DEVICE_LOCKED',
]);
export const USER_NOT_FOUND = 'USER_NOT_FOUND';

/** §4: cookie absent gives none; "true" gives signed in; anything else gives pre-auth. */
export function tokenTypeOf(authenticatedCookie: string | undefined): TokenType {
  if (authenticatedCookie === undefined) return 'none';
  return authenticatedCookie === 'true' ? 'signed-in' : 'pre-auth';
}

/** §4: ROLE_CONCIERGE gives CONCIERGE, ROLE_CARDHOLDER (or nothing known) CARDHOLDER. */
export function userTypeOf(authorities: readonly string[]): UserType {
  return authorities.includes('ROLE_CONCIERGE') ? 'CONCIERGE' : 'CARDHOLDER';
}

export function isSettled(state: AuthState): state is Extract<AuthState, { name: AuthStatus }> {
  return state.name === 'LOGGEDOUT' || state.name === 'LOGGEDIN' || state.name === 'LOGGEDIN-INACTIVE';
}

/** The user type the state knows: from the check, the sign-in, or CARDHOLDER when logged out. */
export function userTypeInState(state: AuthState): UserType {
  if (state.name === 'LOGGEDIN' || state.name === 'LOGGEDIN-INACTIVE') return state.userType;
  if (state.name === 'CHECKING' || state.name === 'SAVING_SITE_LOCALE' || state.name === 'REFRESHING') return state.check.userType;
  return 'CARDHOLDER';
}

/** The site the state was reached for; null before any check. */
export function siteIdInState(state: AuthState): string | null {
  if (state.name === 'UNCHECKED') return null;
  return 'check' in state ? state.check.siteId : state.siteId;
}

/** §4 "When LOGGEDOUT but a refresh token exists, a refresh is tried then the check repeated" (once). */
function loggedOutOrRefresh(check: AuthCheck): Transition {
  if (check.hasRefreshToken && !check.refreshTried) {
    return { state: { name: 'REFRESHING', check: { ...check, refreshTried: true } }, effects: [{ type: 'REFRESH_TOKEN', siteId: check.siteId }] };
  }
  return { state: { name: 'LOGGEDOUT', siteId: check.siteId }, effects: [] };
}

const unchanged = (state: AuthState): Transition => ({ state, effects: [] });

/** The running check in `phase` that an effect outcome for `siteId` belongs to, if any. */
function waitingCheck(state: AuthState, phase: 'CHECKING' | 'SAVING_SITE_LOCALE' | 'REFRESHING', siteId: string): AuthCheck | null {
  return state.name === phase && state.check.siteId === siteId ? state.check : null;
}

export function transition(state: AuthState, event: AuthEvent): Transition {
  switch (event.type) {
    case 'CHECK_REQUESTED': {
      const check: AuthCheck = {
        siteId: event.siteId,
        locale: event.locale,
        userType: event.userTypeCookie === 'CONCIERGE' ? 'CONCIERGE' : 'CARDHOLDER',
        hasRefreshToken: event.hasRefreshToken,
        siteLocaleSaved: false,
        refreshTried: false,
      };
      if (tokenTypeOf(event.authenticatedCookie) === 'signed-in') {
        return { state: { name: 'CHECKING', check }, effects: [{ type: 'CALL_BACKGROUND_CHECK', siteId: check.siteId }] };
      }
      return loggedOutOrRefresh(check);
    }
    case 'BACKGROUND_CHECK_ANSWERED': {
      const check = waitingCheck(state, 'CHECKING', event.siteId);
      if (!check) return unchanged(state);
      const { siteId, userType } = check;
      return { state: event.passesBackgroundCheck ? { name: 'LOGGEDIN', siteId, userType } : { name: 'LOGGEDIN-INACTIVE', siteId, userType }, effects: [] };
    }
    case 'BACKGROUND_CHECK_FAILED': {
      const check = waitingCheck(state, 'CHECKING', event.siteId);
      if (!check) return unchanged(state);
      // §4: USER_NOT_FOUND first saves the user's site locale, then rechecks.
      if (event.code === USER_NOT_FOUND && !check.siteLocaleSaved) {
        return {
          state: { name: 'SAVING_SITE_LOCALE', check: { ...check, siteLocaleSaved: true } },
          effects: [{ type: 'SAVE_SITE_LOCALE', siteId: check.siteId, locale: check.locale }],
        };
      }
      return loggedOutOrRefresh(check);
    }
    case 'SITE_LOCALE_SAVED': {
      const check = waitingCheck(state, 'SAVING_SITE_LOCALE', event.siteId);
      if (!check) return unchanged(state);
      return { state: { name: 'CHECKING', check }, effects: [{ type: 'CALL_BACKGROUND_CHECK', siteId: check.siteId }] };
    }
    case 'SITE_LOCALE_SAVE_FAILED': {
      const check = waitingCheck(state, 'SAVING_SITE_LOCALE', event.siteId);
      return check ? loggedOutOrRefresh(check) : unchanged(state);
    }
    case 'REFRESH_SUCCEEDED': {
      const check = waitingCheck(state, 'REFRESHING', event.siteId);
      if (!check) return unchanged(state);
      return { state: { name: 'CHECKING', check }, effects: [{ type: 'CALL_BACKGROUND_CHECK', siteId: check.siteId }] };
    }
    case 'REFRESH_FAILED': {
      const check = waitingCheck(state, 'REFRESHING', event.siteId);
      if (!check) return unchanged(state);
      return { state: { name: 'LOGGEDOUT', siteId: check.siteId }, effects: [{ type: 'REMOVE_REFRESH_TOKEN' }] };
    }
    case 'TOKEN_RECEIVED': {
      const userType = userTypeOf(event.authorities);
      const status = event.authorities.includes(event.siteId) ? 'LOGGEDIN' : 'LOGGEDIN-INACTIVE';
      return { state: { name: status, siteId: event.siteId, userType }, effects: [{ type: 'STORE_USER_TYPE', userType, expiresAt: event.exp }] };
    }
    case 'AUTHENTICATION_FAILED': {
      return {
        state: { name: 'LOGGEDOUT', siteId: siteIdInState(state) },
        effects: [
          { type: 'CLEAR_SESSION_COOKIES', concierge: userTypeInState(state) === 'CONCIERGE' },
          { type: 'GO_TO_SIGN_IN', reload: !NO_RELOAD_ERROR_CODES.has(event.code) },
        ],
      };
    }
  }
}

/** The settled status guards read; a check still running counts as logged out. */
export function authStatusOf(state: AuthState): AuthStatus {
  return isSettled(state) ? state.name : 'LOGGEDOUT';
}
