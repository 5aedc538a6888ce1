import type { HydrationState } from 'react-router-dom';
import type { ServerStoreState } from '../app/server-page-state';
import type { AccountRoute } from '../app/route-names';

/**
 * What a page rendered on the server carries for the browser (ADR 0024), in its SERVER_PAGE_DATA_ID block:
 * the store and the router start from it, so nothing the server fetched is fetched again.
 */
export interface ServerPageData {
  store: ServerStoreState;
  router: Pick<HydrationState, 'loaderData' | 'actionData'>;
  /** The §4 check's inputs as the server saw them; a browser holding other ones renders afresh. */
  authCheck: AuthCheckInputs;
  /** Cookies and storage keys the server's run removed; the browser removes them before it hydrates. */
  browserEffects: { removedCookies: string[]; removedStorage: string[] };
}

/** What the §4 check starts from: the two readable cookies and whether a refresh token is kept. */
export interface AuthCheckInputs {
  authenticatedCookie: string | null;
  userTypeCookie: string | null;
  hasRefreshToken: boolean;
}

export function authCheckInputsOf(check: { authenticatedCookie?: string; userTypeCookie?: string; hasRefreshToken: boolean }): AuthCheckInputs {
  return { authenticatedCookie: check.authenticatedCookie ?? null, userTypeCookie: check.userTypeCookie ?? null, hasRefreshToken: check.hasRefreshToken };
}

export function sameAuthCheckInputs(one: AuthCheckInputs, other: AuthCheckInputs): boolean {
  return one.authenticatedCookie === other.authenticatedCookie && one.userTypeCookie === other.userTypeCookie && one.hasRefreshToken === other.hasRefreshToken;
}

/** The guest routes of SPEC §2 a person lands on, whose first screen the server sends (ADR 0024). */
export const GUEST_SERVER_ROUTES = [
  'login',
  'login-form',
  'registration',
  'recovery',
  'reset-password',
  'activate',
  'resend-activation',
  'redirect-sso',
] as const;

/** The signed-in screens the server sends, each a screen that is its visitor's to see whole (ADR 0024). */
export const PERSONAL_SERVER_ROUTES = ['profile'] as const;

/** Every route whose first screen the server sends; the others are rendered by the browser as before. */
export const SERVER_RENDERED_ROUTES: ReadonlySet<AccountRoute> = new Set<AccountRoute>([...GUEST_SERVER_ROUTES, ...PERSONAL_SERVER_ROUTES]);
