/**
 * The build's feature flags, SPEC §9 "Feature flags in this build", in one typed place. Code
 * that depends on a flag takes `FeatureFlags` as an input where it is a pure rule (guards, the
 * gateway client's header rules), so tests can turn each flag either way.
 */
export interface FeatureFlags {
  rememberMe: boolean;
  /** Captcha tokens in X-HCAPTCHA-TOKEN (§7). */
  hcaptcha: boolean;
  otherTitles: boolean;
  siteConfig: boolean;
  /** session_expiry = now + expires_in when on (§9). */
  sessionExtension: boolean;
  /** Support agents acting for a user (§6): a third session cookie to clear (§8). */
  concierge: boolean;
  /** Gateway base `/api`, no tokens, sign-in route `login-form` (§2, §7). */
  useClientServer: boolean;
  newAuthSso: boolean;
  /** The sso-simulator route (§2). */
  ssoSimulator: boolean;
  /** Proxy mode: site configuration per site, and `siteid` kept on SSO redirects (§2, §7). */
  proxyCdn: boolean;
  /**
   * §7 "X-COOKIE-AUTH is added when the cookie header option is on". §9 does not list it; it is
   * on because client-server mode authenticates with the SESSION cookie, not a token.
   */
  cookieAuthHeader: boolean;
}

export const FEATURE_FLAGS: Readonly<FeatureFlags> = {
  rememberMe: false,
  hcaptcha: true,
  otherTitles: false,
  siteConfig: false,
  sessionExtension: false,
  concierge: true,
  useClientServer: true,
  newAuthSso: true,
  ssoSimulator: true,
  proxyCdn: false,
  cookieAuthHeader: true,
};
