/**
 * Every route of SPEC §2 under /{issuer}/{locale}/account/ and /{locale}/account/, plus the
 * step-by-step recovery variant's passcode and passcode-preference. `login-form` is the
 * client-server sign-in route (SPEC §9: useClientServer on in this build).
 */
export const ACCOUNT_ROUTES = [
  'login',
  'login-form',
  'activate',
  'login-otp',
  'login-otp-preference',
  'profile',
  'edit-profile',
  'mfa-setup',
  'delete-profile',
  'edit-pan',
  'cashback-statement',
  'site-settings',
  'registration',
  'add-pan',
  'password',
  'compromised-credentials',
  'resend-activation',
  'recovery',
  'reset-password',
  // ADR 0021 "Telling the holder": the "this wasn't me" link of an account notice.
  'secure-account',
  'passcode',
  'passcode-preference',
  'otp-check-preference',
  'otp-check-passcode',
  'logout',
  'redirect-sso',
  'sso-simulator',
  // ADR 0014: a support agent chooses the card holder to act for.
  'concierge',
  // ADR 0025 "Sessions the holder can see": where the account is signed in, and signing those devices out.
  'signed-in-devices',
] as const;
export type AccountRoute = (typeof ACCOUNT_ROUTES)[number];

const ROUTE_SET: ReadonlySet<string> = new Set(ACCOUNT_ROUTES);
export function isAccountRoute(name: string): name is AccountRoute {
  return ROUTE_SET.has(name);
}

/** SPEC §2: any unknown route redirects to login, which is login-form in client-server mode. */
export const FALLBACK_ROUTE: AccountRoute = 'login-form';
