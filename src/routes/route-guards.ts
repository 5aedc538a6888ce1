import { readSiteFormSettings } from '../../schemas/forms/site-form-settings';
import { isMfaOffered, isPasswordManagedHere, isStepByStepRecovery } from '../../schemas/site-config/credential-offers';
import { featureConfigOf, type SiteConfig } from '../../schemas/site-config/types';
import type { FeatureFlags } from '../app/feature-flags';
import { isAppDeepLink, mobileAppOf, type MobileApp, type MobileDevice } from '../app/mobile-deep-link';
import type { AccountRoute } from '../app/route-names';
import type { AuthStatus, UserType } from '../auth/auth-machine';

/**
 * SPEC §2 guards as data: each route lists the guards it passes through, in order, after the
 * global SSO rule. A guard answers null to let the visitor on, or where to send them.
 */
export type GuardName =
  | 'authenticatedOnly'
  | 'guestOnly'
  | 'loginPage'
  | 'clearOtpExpiry'
  | 'profileUpdate'
  | 'registrationStarted'
  | 'deleteProfile'
  | 'capturesCards'
  | 'siteSettings'
  | 'stepByStepRecovery'
  | 'ssoSimulator'
  | 'pendingSignIn'
  | 'notificationInfo'
  | 'mfaRequired'
  | 'mfaOffered'
  | 'passwordOffered'
  | 'passwordChangeRequired'
  | 'conciergeOnly'
  | 'actingForUser'
  | 'notForAgent';

export const ROUTE_GUARDS: Readonly<Record<AccountRoute, readonly GuardName[]>> = {
  login: ['clearOtpExpiry', 'loginPage'],
  'login-form': ['clearOtpExpiry', 'loginPage'],
  activate: [],
  'login-otp': ['pendingSignIn'],
  'login-otp-preference': ['pendingSignIn', 'notificationInfo'],
  profile: ['authenticatedOnly', 'actingForUser', 'mfaRequired'],
  'edit-profile': ['authenticatedOnly', 'actingForUser', 'mfaRequired', 'profileUpdate'],
  'mfa-setup': ['authenticatedOnly', 'notForAgent', 'mfaOffered'],
  'delete-profile': ['authenticatedOnly', 'notForAgent', 'mfaRequired', 'deleteProfile'],
  // ADR 0014: an agent acting for the holder reads their cards (the gateway answers the concierge assets call) but
  // never adds, removes or chooses one (those calls are the card holder's); the screen shows the list only.
  'edit-pan': ['authenticatedOnly', 'actingForUser', 'mfaRequired', 'capturesCards'],
  'cashback-statement': ['authenticatedOnly', 'actingForUser', 'mfaRequired'],
  'site-settings': ['authenticatedOnly', 'actingForUser', 'mfaRequired', 'siteSettings'],
  registration: ['guestOnly'],
  'add-pan': ['guestOnly', 'registrationStarted'],
  password: ['authenticatedOnly', 'notForAgent', 'mfaRequired', 'passwordOffered'],
  'compromised-credentials': ['authenticatedOnly', 'notForAgent', 'mfaRequired', 'passwordChangeRequired'],
  'resend-activation': [],
  recovery: [],
  'reset-password': [],
  // Open like activate: the holder may be signed out, or signed in on another account.
  'secure-account': [],
  passcode: ['stepByStepRecovery'],
  'passcode-preference': ['stepByStepRecovery'],
  'otp-check-preference': ['authenticatedOnly', 'mfaRequired'],
  'otp-check-passcode': ['authenticatedOnly', 'mfaRequired'],
  logout: ['authenticatedOnly'],
  'redirect-sso': [],
  'sso-simulator': ['ssoSimulator'],
  concierge: ['authenticatedOnly', 'conciergeOnly'],
  // ADR 0025: the holder's own sessions; an agent acting for someone never sees them (the gateway refuses too).
  'signed-in-devices': ['authenticatedOnly', 'notForAgent', 'mfaRequired'],
};

/**
 * §2 global SSO rule: on an SSO site every route but these goes to redirect-sso. secure-account is the link of an
 * account notice (ADR 0021 "Telling the holder"), which an SSO site's holders get too (a sign-in from a new device):
 * it must open where it points.
 */
export const SSO_OPEN_ROUTES: ReadonlySet<AccountRoute> = new Set(['redirect-sso', 'logout', 'sso-simulator', 'secure-account']);

export interface GuardContext {
  route: AccountRoute;
  auth: AuthStatus;
  site: SiteConfig;
  locale: string;
  /** The URL's query string, `?…` or ''. */
  search: string;
  flags: Pick<FeatureFlags, 'useClientServer' | 'ssoSimulator' | 'proxyCdn'>;
  hasRegistrationData: boolean;
  /** §2 "needs stored login data": a sign-in waits for its passcode (in memory, ADR 0008). */
  hasPendingSignIn: boolean;
  /** §2 login-otp-preference "needs … notification info": get-preference-details answered. */
  hasNotificationInfo: boolean;
  device: MobileDevice | null;
  /** The signed-in user has enrolled a TOTP authenticator (profile mfaEnrollmentStatus, SPEC §3). */
  mfaEnrolled: boolean;
  /** SPEC §4 user type of the signed-in visitor. */
  userType: UserType;
  /** ADR 0014: a support agent has chosen the card holder to act for (find-concierge answered). */
  actingForUser: boolean;
  /**
   * ADR 0009: the gateway holds this account until it replaces a breached password (its profile
   * answered 403 PASSWORD_CHANGE_REQUIRED).
   */
  passwordChangeRequired: boolean;
}

/**
 * Why a redirect happened, when the page it lands on must say so: `holderOnly`, a screen only the card holder may
 * use, reached by a support agent (ADR 0014), who would otherwise be sent back without a word.
 */
export type RedirectReason = 'holderOnly';

export type GuardDecision =
  | { kind: 'allow'; clearOtpExpiry: boolean }
  | { kind: 'redirect'; route: AccountRoute; search: string; reason?: RedirectReason }
  | { kind: 'open-app'; url: string; device: MobileDevice; app: MobileApp };

type Redirect = Extract<GuardDecision, { kind: 'redirect' | 'open-app' }>;

/** §2 "login (login-form in client-server mode)". */
export function signInRoute(flags: Pick<FeatureFlags, 'useClientServer'>): AccountRoute {
  return flags.useClientServer ? 'login-form' : 'login';
}

export function isSsoSite(site: SiteConfig): boolean {
  return featureConfigOf(site, 'site_auth_profile').auth_mechanism === 'SSO';
}

/** §2 preloaded data: the offers list only when the attribute offers_preference is shown (level not None). */
export function isOffersPreferenceShown(site: SiteConfig): boolean {
  const level = readSiteFormSettings(site).levels.offers_preference;
  return level !== undefined && level !== 'None';
}

const to = (route: AccountRoute, search: string): Redirect => ({ kind: 'redirect', route, search });

const GUARDS: Readonly<Record<Exclude<GuardName, 'clearOtpExpiry'>, (context: GuardContext) => Redirect | null>> = {
  // Logged-out and logged-in-inactive visitors sign in first; the query (siteid, returnurl) travels along.
  authenticatedOnly: (c) => (c.auth === 'LOGGEDIN' ? null : to(signInRoute(c.flags), c.search)),
  guestOnly: (c) => (c.auth === 'LOGGEDIN' ? to('profile', c.search) : null),
  // Logged-in visitors go on to the profile with the returnurl, or, with a deep link of the site's app
  // (mobile_app.app_scheme) on a phone, to the app (§2 mobile deep link).
  loginPage: (c) => {
    if (c.auth !== 'LOGGEDIN') return null;
    const returnUrl = new URLSearchParams(c.search).get('returnurl');
    const app = mobileAppOf(c.site);
    if (app !== null && isAppDeepLink(returnUrl, app) && c.device !== null) return { kind: 'open-app', url: returnUrl, device: c.device, app };
    return to('profile', c.search);
  },
  profileUpdate: (c) => (readSiteFormSettings(c.site).profileUpdatable ? null : to('profile', c.search)),
  registrationStarted: (c) => (c.hasRegistrationData ? null : to('registration', c.search)),
  deleteProfile: (c) => (featureConfigOf(c.site, 'allow_delete_profile').allow_delete_profile === 'false' ? to('profile', c.search) : null),
  // Our rule: managing cards needs the site to capture cards at all.
  capturesCards: (c) => (c.site.siteFeatureConfigurations.some((feature) => feature.name === 'pan_capture') ? null : to('profile', c.search)),
  // Our rule: the preferences screen edits offer preferences, so the site must show them.
  siteSettings: (c) => (isOffersPreferenceShown(c.site) ? null : to('profile', c.search)),
  // Our rule: passcode steps exist only in the step-by-step recovery variant.
  stepByStepRecovery: (c) => (isStepByStepRecovery(c.site, c.locale) ? null : to('recovery', c.search)),
  ssoSimulator: (c) => (c.flags.ssoSimulator ? null : to(signInRoute(c.flags), c.search)),
  // §2 "needs stored login data": without a sign-in waiting for its passcode, start at sign-in.
  pendingSignIn: (c) => (c.hasPendingSignIn ? null : to(signInRoute(c.flags), c.search)),
  notificationInfo: (c) => (c.hasNotificationInfo ? null : to(signInRoute(c.flags), c.search)),
  // Our rule (fixture format, ADR 0001): on a site with site_auth_profile mfa "required", a signed-in user
  // sets up an authenticator before anything else; mfa-setup and logout stay open.
  // An agent never sets up MFA for someone else (ADR 0014).
  mfaRequired: (c) => (c.userType !== 'CONCIERGE' && isMfaRequired(c.site) && !c.mfaEnrolled ? to('mfa-setup', c.search) : null),
  // Our rule: a site with mfa "off" offers no authenticator set-up (the gateway answers MFA_NOT_OFFERED).
  mfaOffered: (c) => (isMfaOffered(c.site) ? null : to('profile', c.search)),
  // ADR 0015: an SSO site's people change their password at its identity provider (the gateway answers PASSWORD_MANAGED_BY_SSO).
  passwordOffered: (c) => (isPasswordManagedHere(c.site) ? null : to('profile', c.search)),
  // ADR 0009: the password-free replacement is only for the account the gateway holds; anyone else has the password screen.
  passwordChangeRequired: (c) => (c.passwordChangeRequired ? null : to('profile', c.search)),
  // ADR 0014: the concierge screen is the agent's; a card holder goes to their profile.
  conciergeOnly: (c) => (c.userType === 'CONCIERGE' ? null : to('profile', c.search)),
  // ADR 0014: the user screens show the card holder acted for, so an agent chooses one first.
  actingForUser: (c) => (c.userType === 'CONCIERGE' && !c.actingForUser ? to('concierge', c.search) : null),
  // ADR 0014: an agent never changes a password, MFA or the account (the gateway refuses too), and is told so.
  notForAgent: (c) => (c.userType === 'CONCIERGE' ? { ...to('concierge', c.search), reason: 'holderOnly' } : null),
};

export function isMfaRequired(site: SiteConfig): boolean {
  return featureConfigOf(site, 'site_auth_profile').mfa === 'required';
}

/**
 * §2 global SSO rule; keeps only `siteid`, and only in proxy mode. The rule replaces the sign-in form,
 * so it spares a signed-in visitor (§4 LOGGEDIN) on the routes that need a sign-in: their account pages
 * (ADR 0015). Anonymous and inactive visitors, and every guest route, still go to redirect-sso.
 */
function ssoRule(c: GuardContext): Redirect | null {
  if (!isSsoSite(c.site) || SSO_OPEN_ROUTES.has(c.route)) return null;
  if (c.auth === 'LOGGEDIN' && ROUTE_GUARDS[c.route].includes('authenticatedOnly')) return null;
  const siteId = new URLSearchParams(c.search).get('siteid');
  return to('redirect-sso', c.flags.proxyCdn && siteId !== null ? `?${new URLSearchParams({ siteid: siteId }).toString()}` : '');
}

/** Where a held account may still go: the replacement itself, and signing out. */
const OPEN_WHILE_PASSWORD_CHANGE_REQUIRED: ReadonlySet<AccountRoute> = new Set(['compromised-credentials', 'logout']);

/**
 * ADR 0009 "Compromised credentials": while the gateway holds the account (every signed-in call but
 * the replacement answers 403 PASSWORD_CHANGE_REQUIRED), every signed-in route leads to the
 * replacement, whether reached by a link, a typed URL or a reload.
 */
function passwordChangeRule(c: GuardContext): Redirect | null {
  if (!c.passwordChangeRequired || c.auth !== 'LOGGEDIN' || OPEN_WHILE_PASSWORD_CHANGE_REQUIRED.has(c.route)) return null;
  return ROUTE_GUARDS[c.route].includes('authenticatedOnly') ? to('compromised-credentials', c.search) : null;
}

export function decideRoute(context: GuardContext): GuardDecision {
  const sso = ssoRule(context);
  if (sso) return sso;
  const passwordChange = passwordChangeRule(context);
  if (passwordChange) return passwordChange;
  for (const name of ROUTE_GUARDS[context.route]) {
    if (name === 'clearOtpExpiry') continue;
    const decision = GUARDS[name](context);
    if (decision) return decision;
  }
  // §2 "A guard clears the stored OTP-check expiry on entry": entering the sign-in route starts afresh.
  return { kind: 'allow', clearOtpExpiry: ROUTE_GUARDS[context.route].includes('clearOtpExpiry') };
}
