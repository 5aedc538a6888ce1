import type { FeatureFlags } from '../app/feature-flags';
import { XSRF_HEADER } from '../app/storage-names';

/**
 * SPEC §7's header rules as pure functions of one request: the gateway base query
 * (gateway-api.ts) gathers the inputs (cookies, stored tokens, captcha) and applies these.
 */
export const SITE_ID_HEADER = 'X-SITE-ID';
export const COOKIE_AUTH_HEADER = 'X-COOKIE-AUTH';
export const CORRELATION_ID_HEADER = 'X-CID';
export const CAPTCHA_HEADER = 'X-HCAPTCHA-TOKEN';

/** §7: `/api` in client-server mode, `/gateway/api` otherwise. */
export function gatewayBaseUrl(flags: Pick<FeatureFlags, 'useClientServer'>): string {
  return flags.useClientServer ? '/api' : '/gateway/api';
}

/** §7 pre-auth token call; overridable by the caller of the client. */
export const PRE_AUTH_TOKEN_URL = 'user-auth/oauth/token?preauth=true';

/** §7 "Whitelisted URLs are skipped": never given a token, never trigger a pre-auth fetch. */
const WHITELISTED_URLS: readonly RegExp[] = [/^user-auth\/oauth\/token\?(?:.*&)?preauth=true(?:&|$)/];

/**
 * §7 "Tokens are added only for a listed set of endpoints": configurations, login, oidc login,
 * user token, refresh token, registration, activate, recovery new password, resend activation,
 * recovery, site config, offers, AEM bin, SSO assertion, SSO auth.
 */
const TOKEN_ENDPOINTS: readonly RegExp[] = [
  /(?:^|\/)account\/configurations\//, // configurations
  /^user-auth\/(?:login|oauth\/token)(?:\?|$)/, // login (and the refresh grant on the same path)
  /^user-auth\/oidc\//, // oidc login
  /^user-auth\/auth\/user-token(?:\?|$)/, // user token
  /^user-auth\/auth\/refresh-token(?:\?|$)/, // refresh token
  /^user-mgmt\/user\/(?:registration|register\/)/, // registration
  /^user-mgmt\/user\/activate-token(?:\?|$)/, // activate
  /^user-mgmt\/user\/change-password-from-passcode(?:\?|$)/, // recovery new password
  /^user-mgmt\/user\/activation-email(?:\?|$)/, // resend activation
  /^user-mgmt\/user\/(?:send-passcode|send-code|find-code)(?:\?|$)/, // recovery
  /^site-config-service\//, // site config
  /^\/?offers(?:data)?\//, // offers
  /^bin\/aem\/rest(?:\?|$)/, // AEM bin
  /^user-auth\/(?:saml|sso)\//, // SSO assertion, SSO auth (paths not shown in §7)
];

/** §7 login URLs: where X-CID is sent once known, and where §8 skips BAD_CREDENTIALS. */
const LOGIN_URLS: readonly RegExp[] = [/^user-auth\/login(?:\?|$)/, /^user-auth\/oauth\/token(?:\?|$)/];

export function isWhitelistedUrl(url: string): boolean {
  return WHITELISTED_URLS.some((pattern) => pattern.test(url));
}

export function isLoginUrl(url: string): boolean {
  return !isWhitelistedUrl(url) && LOGIN_URLS.some((pattern) => pattern.test(url));
}

/** §7: a token goes only to the listed endpoints, never in client-server mode, never to whitelisted URLs. */
export function needsToken(url: string, flags: Pick<FeatureFlags, 'useClientServer'>): boolean {
  if (flags.useClientServer || isWhitelistedUrl(url)) return false;
  return TOKEN_ENDPOINTS.some((pattern) => pattern.test(url));
}

export interface HeaderRuleInputs {
  url: string;
  siteId: string;
  /** The XSRF cookie's value, when the cookie exists. */
  xsrfToken: string | undefined;
  /** The correlation id learned from an earlier error response. */
  learnedCorrelationId: string | null;
  /** The access or pre-auth token, only for requests that `needsToken`. */
  bearerToken: string | null;
  /** The captcha token for requests that asked for one; '' when the captcha failed; null when not asked. */
  captchaToken: string | null;
  flags: Pick<FeatureFlags, 'cookieAuthHeader' | 'hcaptcha' | 'useClientServer'>;
}

export function gatewayRequestHeaders(inputs: HeaderRuleInputs): Record<string, string> {
  const headers: Record<string, string> = { [SITE_ID_HEADER]: inputs.siteId };
  if (inputs.xsrfToken !== undefined && inputs.xsrfToken !== '') headers[XSRF_HEADER] = inputs.xsrfToken;
  if (inputs.flags.cookieAuthHeader) headers[COOKIE_AUTH_HEADER] = 'true';
  if (inputs.learnedCorrelationId !== null && isLoginUrl(inputs.url)) headers[CORRELATION_ID_HEADER] = inputs.learnedCorrelationId;
  if (inputs.captchaToken !== null && inputs.flags.hcaptcha) headers[CAPTCHA_HEADER] = inputs.captchaToken;
  if (inputs.bearerToken !== null && needsToken(inputs.url, inputs.flags)) headers.Authorization = `Bearer ${inputs.bearerToken}`;
  return headers;
}
