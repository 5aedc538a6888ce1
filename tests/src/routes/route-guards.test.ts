import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { FEATURE_FLAGS } from '../../../src/app/feature-flags';
import { ACCOUNT_ROUTES, type AccountRoute } from '../../../src/app/route-names';
import type { AuthStatus } from '../../../src/auth/auth-machine';
import { decideRoute, ROUTE_GUARDS, type GuardContext, type GuardDecision } from '../../../src/routes/route-guards';
import { readSiteFixture } from '../../support/site-fixtures';

/**
 * SPEC §2 guards, table-driven: (route × auth state × site kind) → where the visitor ends.
 * Site kinds are real fixtures: firstbank (classic), northbank (updatable and allow_delete_profile
 * "false"), vppcards (no offers_preference), bancosol (pt_br, step-by-step recovery), unionbank (SSO).
 */
const SITES = {
  classic: { site: readSiteFixture('firstbank'), locale: 'en_us' },
  restricted: { site: readSiteFixture('northbank'), locale: 'fr_ca' },
  noOffers: { site: readSiteFixture('vppcards'), locale: 'en_gb' },
  stepByStep: { site: readSiteFixture('bancosol'), locale: 'pt_br' },
  sso: { site: readSiteFixture('unionbank'), locale: 'en_us' },
} as const;
type SiteKind = keyof typeof SITES;

const AUTH_STATES: readonly AuthStatus[] = ['LOGGEDOUT', 'LOGGEDIN-INACTIVE', 'LOGGEDIN'];

function context(route: AccountRoute, auth: AuthStatus, kind: SiteKind, overrides: Partial<GuardContext> = {}): GuardContext {
  return {
    route,
    auth,
    ...SITES[kind],
    search: '',
    flags: FEATURE_FLAGS,
    hasRegistrationData: false,
    hasPendingSignIn: false,
    hasNotificationInfo: false,
    device: null,
    mfaEnrolled: false,
    userType: 'CARDHOLDER',
    actingForUser: false,
    passwordChangeRequired: false,
    ...overrides,
  };
}

/** Where the decision leaves the visitor: the route itself when allowed. */
function destination(decision: GuardDecision, route: AccountRoute): string {
  if (decision.kind === 'redirect') return decision.route;
  if (decision.kind === 'open-app') return `app:${decision.url}`;
  return route;
}

/**
 * Expected destination per route on the classic site for [LOGGEDOUT, LOGGEDIN-INACTIVE, LOGGEDIN].
 * "=" means the route itself. Written from SPEC §2's table and guard list.
 */
const CLASSIC: Readonly<Record<AccountRoute, readonly [string, string, string]>> = {
  login: ['=', '=', 'profile'], // login-page guard
  'login-form': ['=', '=', 'profile'],
  activate: ['=', '=', '='], // open
  'login-otp': ['login-form', 'login-form', 'login-form'], // needs stored login data (none here)
  'login-otp-preference': ['login-form', 'login-form', 'login-form'],
  profile: ['login-form', 'login-form', '='], // authenticated-only
  'edit-profile': ['login-form', 'login-form', '='],
  'mfa-setup': ['login-form', 'login-form', '='],
  'delete-profile': ['login-form', 'login-form', '='],
  'edit-pan': ['login-form', 'login-form', '='],
  'cashback-statement': ['login-form', 'login-form', '='],
  'site-settings': ['login-form', 'login-form', '='],
  registration: ['=', '=', 'profile'], // guest-only
  'add-pan': ['registration', 'registration', 'profile'], // guest-only, then needs registration data
  password: ['login-form', 'login-form', '='],
  'compromised-credentials': ['login-form', 'login-form', 'profile'], // ADR 0009: only while the gateway holds the account
  'resend-activation': ['=', '=', '='],
  recovery: ['=', '=', '='],
  'reset-password': ['=', '=', '='],
  'secure-account': ['=', '=', '='], // ADR 0021: open, whoever is signed in here
  passcode: ['recovery', 'recovery', 'recovery'], // current recovery variant on en_us without send_sms
  'passcode-preference': ['recovery', 'recovery', 'recovery'],
  'otp-check-preference': ['login-form', 'login-form', '='],
  'otp-check-passcode': ['login-form', 'login-form', '='],
  logout: ['login-form', 'login-form', '='],
  'redirect-sso': ['=', '=', '='],
  'sso-simulator': ['=', '=', '='], // simulator feature on in this build
  concierge: ['login-form', 'login-form', 'profile'], // ADR 0014: a card holder is no agent
  'signed-in-devices': ['login-form', 'login-form', '='], // ADR 0025: the holder's own sessions
};

const rows = ACCOUNT_ROUTES.flatMap((route) => AUTH_STATES.map((auth, index) => [route, auth, CLASSIC[route][index]!] as const));

describe('§2 guards on a classic site (firstbank)', () => {
  it.each(rows)('%s as %s → %s', (route, auth, expected) => {
    expect(destination(decideRoute(context(route, auth, 'classic')), route)).toBe(expected === '=' ? route : expected);
  });

  it('covers every route of §2 and gives each one a guard list', () => {
    expect(Object.keys(CLASSIC).sort()).toEqual([...ACCOUNT_ROUTES].sort());
    expect(Object.keys(ROUTE_GUARDS).sort()).toEqual([...ACCOUNT_ROUTES].sort());
  });
});

describe('§2 global SSO rule (unionbank)', () => {
  // ADR 0021: an account notice's link opens on the SSO site too.
  const open = new Set<AccountRoute>(['redirect-sso', 'logout', 'sso-simulator', 'secure-account']);
  /** ADR 0015 (lead decision): a signed-in card holder reaches the routes that need a sign-in. */
  const signedInRoutes = new Set<AccountRoute>(ACCOUNT_ROUTES.filter((route) => ROUTE_GUARDS[route].includes('authenticatedOnly')));
  const ssoRows = ACCOUNT_ROUTES.flatMap((route) => AUTH_STATES.map((auth) => [route, auth] as const));
  it.each(ssoRows)('%s as %s', (route, auth) => {
    const decision = decideRoute(context(route, auth, 'sso'));
    if (open.has(route)) expect(destination(decision, route)).toBe(route === 'logout' && auth !== 'LOGGEDIN' ? 'login-form' : route);
    else if (auth === 'LOGGEDIN' && signedInRoutes.has(route)) expect(destination(decision, route)).not.toBe('redirect-sso');
    else expect(decision).toEqual({ kind: 'redirect', route: 'redirect-sso', search: '' });
  });

  it.each([
    ['profile', 'profile'],
    ['edit-profile', 'edit-profile'],
    ['edit-pan', 'edit-pan'],
    ['cashback-statement', 'cashback-statement'],
    ['site-settings', 'site-settings'],
    ['password', 'profile'], // ADR 0015: the password is the identity provider's
    ['mfa-setup', 'profile'], // unionbank's mfa is "off"
    ['concierge', 'profile'], // a card holder is sent on to their profile (ADR 0014)
    ['signed-in-devices', 'signed-in-devices'], // an SSO sign-in is a session like any other (ADR 0025)
    ['login-form', 'redirect-sso'],
    ['registration', 'redirect-sso'],
    ['recovery', 'redirect-sso'],
  ] as const)('a signed-in card holder on %s ends at %s', (route, expected) => {
    expect(destination(decideRoute(context(route, 'LOGGEDIN', 'sso')), route)).toBe(expected);
  });

  it.each(['LOGGEDOUT', 'LOGGEDIN-INACTIVE'] as const)('a visitor %s on an account page still goes to redirect-sso', (auth) => {
    expect(decideRoute(context('profile', auth, 'sso'))).toEqual({ kind: 'redirect', route: 'redirect-sso', search: '' });
  });

  it('keeps siteid, and only siteid, in proxy mode', () => {
    const search = '?siteid=unionbank&returnurl=%2Fen_us%2Faccount%2Fprofile';
    expect(decideRoute(context('profile', 'LOGGEDOUT', 'sso', { search, flags: { ...FEATURE_FLAGS, proxyCdn: true } }))).toEqual({
      kind: 'redirect',
      route: 'redirect-sso',
      search: '?siteid=unionbank',
    });
    expect(decideRoute(context('profile', 'LOGGEDOUT', 'sso', { search }))).toEqual({ kind: 'redirect', route: 'redirect-sso', search: '' });
  });
});

describe('ADR 0009: an account the gateway holds until it replaces a breached password', () => {
  const held = (route: AccountRoute, auth: AuthStatus = 'LOGGEDIN') =>
    destination(decideRoute(context(route, auth, 'classic', { passwordChangeRequired: true })), route);
  const signedInRoutes = ACCOUNT_ROUTES.filter(
    (route) => ROUTE_GUARDS[route].includes('authenticatedOnly') && route !== 'compromised-credentials' && route !== 'logout',
  );

  it.each(signedInRoutes)('%s, by link or typed URL, leads to compromised-credentials', (route) => {
    expect(held(route)).toBe('compromised-credentials');
  });

  it('leaves compromised-credentials, logout and the guest routes as they are', () => {
    expect(held('compromised-credentials')).toBe('compromised-credentials');
    expect(held('logout')).toBe('logout');
    expect(held('recovery')).toBe('recovery');
    expect(held('profile', 'LOGGEDOUT')).toBe('login-form');
  });
});

describe('§2 site-dependent guards', () => {
  it.each([
    // [route, auth, site kind, expected]
    ['edit-profile', 'LOGGEDIN', 'restricted', 'profile'], // profile-update guard: updatable "false"
    ['delete-profile', 'LOGGEDIN', 'restricted', 'profile'], // allow_delete_profile "false"
    ['site-settings', 'LOGGEDIN', 'noOffers', 'profile'], // site-settings guard: offers_preference not shown
    ['site-settings', 'LOGGEDIN', 'restricted', 'site-settings'],
    ['edit-pan', 'LOGGEDIN', 'restricted', 'edit-pan'], // pan_capture configured
    ['passcode', 'LOGGEDOUT', 'stepByStep', 'passcode'], // pt_br: step-by-step recovery
    ['passcode-preference', 'LOGGEDOUT', 'stepByStep', 'passcode-preference'],
    ['passcode', 'LOGGEDOUT', 'restricted', 'recovery'],
  ] as const)('%s as %s on %s → %s', (route, auth, kind, expected) => {
    expect(destination(decideRoute(context(route, auth, kind)), route)).toBe(expected);
  });

  it('edit-pan goes to /profile on a site that captures no cards', () => {
    const site: SiteConfig = {
      ...SITES.classic.site,
      siteFeatureConfigurations: SITES.classic.site.siteFeatureConfigurations.filter((f) => f.name !== 'pan_capture'),
    };
    expect(destination(decideRoute(context('edit-pan', 'LOGGEDIN', 'classic', { site })), 'edit-pan')).toBe('profile');
  });

  it('step-by-step recovery also when send_sms is "true" on another locale', () => {
    expect(destination(decideRoute(context('passcode', 'LOGGEDOUT', 'stepByStep', { locale: 'en_us' })), 'passcode')).toBe('passcode');
  });
});

describe('§2 flow guards and switches', () => {
  it('add-pan passes a guest with registration data', () => {
    expect(decideRoute(context('add-pan', 'LOGGEDOUT', 'classic', { hasRegistrationData: true }))).toEqual({ kind: 'allow', clearOtpExpiry: false });
  });

  it('§2 login-otp opens with stored login data; login-otp-preference also needs the notification info', () => {
    expect(decideRoute(context('login-otp', 'LOGGEDOUT', 'classic', { hasPendingSignIn: true }))).toEqual({ kind: 'allow', clearOtpExpiry: false });
    expect(decideRoute(context('login-otp-preference', 'LOGGEDOUT', 'classic', { hasPendingSignIn: true }))).toEqual({
      kind: 'redirect',
      route: 'login-form',
      search: '',
    });
    expect(decideRoute(context('login-otp-preference', 'LOGGEDOUT', 'classic', { hasNotificationInfo: true }))).toEqual({
      kind: 'redirect',
      route: 'login-form',
      search: '',
    });
    expect(decideRoute(context('login-otp-preference', 'LOGGEDOUT', 'classic', { hasPendingSignIn: true, hasNotificationInfo: true }))).toEqual({
      kind: 'allow',
      clearOtpExpiry: false,
    });
  });

  it('sso-simulator goes to the sign-in route when the simulator feature is off', () => {
    const flags = { ...FEATURE_FLAGS, ssoSimulator: false };
    expect(decideRoute(context('sso-simulator', 'LOGGEDOUT', 'classic', { flags }))).toEqual({ kind: 'redirect', route: 'login-form', search: '' });
  });

  it('the sign-in route is login outside client-server mode', () => {
    const flags = { ...FEATURE_FLAGS, useClientServer: false };
    expect(decideRoute(context('profile', 'LOGGEDOUT', 'classic', { flags }))).toEqual({ kind: 'redirect', route: 'login', search: '' });
  });

  it('redirects keep the query: the login-page guard sends a signed-in user to /profile with the returnurl', () => {
    const search = '?returnurl=%2Ffirstbank%2Fen_us%2Faccount%2Fedit-pan';
    expect(decideRoute(context('login', 'LOGGEDIN', 'classic', { search }))).toEqual({ kind: 'redirect', route: 'profile', search });
    expect(decideRoute(context('profile', 'LOGGEDOUT', 'classic', { search }))).toEqual({ kind: 'redirect', route: 'login-form', search });
  });

  it('the OTP-check expiry is cleared on entering the sign-in routes only', () => {
    const clearing = ACCOUNT_ROUTES.filter((route) => {
      const decision = decideRoute(context(route, 'LOGGEDOUT', 'classic', { hasRegistrationData: true }));
      return decision.kind === 'allow' && decision.clearOtpExpiry;
    });
    expect(clearing).toEqual(['login', 'login-form']);
  });
});

describe('§2 mobile deep link on the login page (firstbank mobile_app.app_scheme)', () => {
  const search = `?returnurl=${encodeURIComponent('firstbankrewards://offers/123')}`;
  it.each([
    ['ios', 'app:firstbankrewards://offers/123'],
    ['android', 'app:firstbankrewards://offers/123'],
    [null, 'profile'],
  ] as const)('a signed-in visitor on %s ends at %s', (device, expected) => {
    expect(destination(decideRoute(context('login', 'LOGGEDIN', 'classic', { search, device })), 'login')).toBe(expected);
  });

  it('a logged-out visitor signs in first', () => {
    expect(decideRoute(context('login', 'LOGGEDOUT', 'classic', { search, device: 'ios' }))).toEqual({ kind: 'allow', clearOtpExpiry: true });
  });
});

describe('mfa "required" (dohabank): a signed-in user sets up an authenticator first', () => {
  const dohabank = { site: readSiteFixture('dohabank'), locale: 'ar_qa' };
  const on = (route: AccountRoute, mfaEnrolled: boolean) =>
    destination(decideRoute({ ...context(route, 'LOGGEDIN', 'classic'), ...dohabank, mfaEnrolled }), route);

  it.each(['profile', 'edit-profile', 'edit-pan', 'password', 'cashback-statement', 'otp-check-preference', 'signed-in-devices'] as const)(
    '%s goes to mfa-setup until enrolled',
    (route) => {
      expect(on(route, false)).toBe('mfa-setup');
      expect(on(route, true)).toBe(route);
    },
  );

  it('offers no authenticator set-up on a site with mfa "off" (vppcards)', () => {
    expect(destination(decideRoute(context('mfa-setup', 'LOGGEDIN', 'noOffers')), 'mfa-setup')).toBe('profile');
  });

  it.each(['profile', 'cashback-statement'] as const)('%s lets an agent acting for a card holder through without an authenticator (ADR 0014)', (route) => {
    // An agent never sets up MFA for someone else; the card holder without one is still sent to set-up.
    const agent = { userType: 'CONCIERGE', actingForUser: true, mfaEnrolled: false } as const;
    expect(destination(decideRoute({ ...context(route, 'LOGGEDIN', 'classic'), ...dohabank, ...agent }), route)).toBe(route);
    expect(on(route, false)).toBe('mfa-setup');
  });

  it('leaves mfa-setup and logout open, and sites without the rule alone', () => {
    expect(on('mfa-setup', false)).toBe('mfa-setup');
    expect(on('logout', false)).toBe('logout');
    expect(destination(decideRoute(context('profile', 'LOGGEDIN', 'classic')), 'profile')).toBe('profile');
  });
});

describe('ADR 0014: what a support agent may open', () => {
  it('the holder-only screens send an agent to the concierge screen with the reason the page says; the cards screen lets one acting for someone read', () => {
    const agent = { userType: 'CONCIERGE', actingForUser: true, mfaEnrolled: false } as const;
    for (const route of ['password', 'delete-profile', 'mfa-setup', 'compromised-credentials', 'signed-in-devices'] as const) {
      expect(decideRoute({ ...context(route, 'LOGGEDIN', 'classic'), ...agent }), route).toMatchObject({
        kind: 'redirect',
        route: 'concierge',
        reason: 'holderOnly',
      });
    }
    expect(destination(decideRoute({ ...context('edit-pan', 'LOGGEDIN', 'classic'), ...agent }), 'edit-pan')).toBe('edit-pan');
    expect(destination(decideRoute({ ...context('edit-pan', 'LOGGEDIN', 'classic'), ...agent, actingForUser: false }), 'edit-pan')).toBe('concierge');
    // A card holder sent elsewhere is given no reason to show: the guards' usual ways on need none.
    expect(decideRoute(context('edit-profile', 'LOGGEDIN', 'restricted'))).not.toHaveProperty('reason');
  });
});

describe('ADR 0025: signed-in devices are the holder’s own', () => {
  it('an agent, acting for someone or not, is sent to the concierge screen; the gateway refuses the calls too (ADR 0014)', () => {
    for (const actingForUser of [true, false]) {
      const agent = { userType: 'CONCIERGE', actingForUser, mfaEnrolled: false } as const;
      expect(destination(decideRoute({ ...context('signed-in-devices', 'LOGGEDIN', 'classic'), ...agent }), 'signed-in-devices')).toBe('concierge');
    }
  });
});
