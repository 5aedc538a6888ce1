import { featureConfigOf, type SiteConfig } from '../../../schemas/site-config/types';
import { validateReturnUrl } from '../../../schemas/validators/url';

/**
 * SPEC §3 `connected_app`: the name people know their bank's sign-in app by ("Smile"), which
 * redirect-sso names on its page and button (ADR 0001); null when the site names none.
 */
export function connectedAppOf(site: SiteConfig): string | null {
  const name = featureConfigOf(site, 'site_auth_profile').connected_app?.trim();
  return name ? name : null;
}

/** SPEC §2 SSO parameters, in the order redirect-sso collects them. */
export const SSO_PARAMETER_NAMES = ['client_id', 'response_type', 'scope', 'state', 'nonce', 'redirect_uri', 'last_visited_path'] as const;
export type SsoParameterName = (typeof SSO_PARAMETER_NAMES)[number];
export type SsoParameters = Partial<Record<SsoParameterName, string>>;

/** ADR 0015: the shapes the gateway accepts; checked here first so a wrong link is explained on the page. */
const OPAQUE_VALUE = /^[A-Za-z0-9._~-]{16,128}$/;
const DEFAULT_SCOPE = 'openid email profile';

/** ADR 0015 / docs/decisions/0028-sso-saml.md: the gateway call that starts the sign-in, by the site's protocol. */
export type SsoProtocol = 'oidc' | 'saml';
export type SsoCollection =
  { kind: 'not-sso' } | { kind: 'invalid'; names: SsoParameterName[] } | { kind: 'ready'; protocol: SsoProtocol; params: SsoParameters };

/** The start of the sign-in, relative to the gateway base: OIDC's authorize or SAML's AuthnRequest. */
export const ssoStartPath = (protocol: SsoProtocol) => (protocol === 'saml' ? '/user-auth/saml/authorize' : '/user-auth/oidc/authorize');

/**
 * The §2 parameters of redirect-sso: its query's, else the site's `site_auth_profile` (client id, the
 * registered redirect URI of this very page). Every one is checked as the gateway will check it.
 */
export function collectSsoParameters(site: SiteConfig, query: URLSearchParams, page: { origin: string; path: string }): SsoCollection {
  const profile = featureConfigOf(site, 'site_auth_profile');
  // ADR 0028: a SAML site's start takes the page to come back to and nothing else; the gateway makes the AuthnRequest.
  if (profile.auth_mechanism === 'SSO' && profile.protocol === 'saml') {
    const lastVisitedPath = query.get('last_visited_path') ?? undefined;
    if (lastVisitedPath !== undefined && validateReturnUrl(lastVisitedPath) !== null) return { kind: 'invalid', names: ['last_visited_path'] };
    return { kind: 'ready', protocol: 'saml', params: { last_visited_path: lastVisitedPath } };
  }
  if (profile.auth_mechanism !== 'SSO' || !profile.client_id || !profile.redirect_uris) return { kind: 'not-sso' };
  const registered = profile.redirect_uris.split(' ');
  const ownUri = registered.find((uri) => uri === page.path || uri === `${page.origin}${page.path}`) ?? registered[0];
  const given = (name: SsoParameterName) => query.get(name) ?? undefined;
  const params: SsoParameters = {
    client_id: given('client_id') ?? profile.client_id,
    response_type: given('response_type') ?? 'code',
    scope: given('scope') ?? DEFAULT_SCOPE,
    state: given('state'),
    nonce: given('nonce'),
    redirect_uri: given('redirect_uri') ?? ownUri,
    last_visited_path: given('last_visited_path'),
  };
  const invalid: Record<SsoParameterName, boolean> = {
    client_id: params.client_id !== profile.client_id,
    response_type: params.response_type !== 'code',
    scope: !(params.scope ?? '').split(' ').includes('openid'),
    state: params.state !== undefined && !OPAQUE_VALUE.test(params.state),
    nonce: params.nonce !== undefined && !OPAQUE_VALUE.test(params.nonce),
    redirect_uri: !registered.includes(params.redirect_uri ?? ''),
    last_visited_path: params.last_visited_path !== undefined && validateReturnUrl(params.last_visited_path) !== null,
  };
  const names = SSO_PARAMETER_NAMES.filter((name) => invalid[name]);
  return names.length > 0 ? { kind: 'invalid', names } : { kind: 'ready', protocol: 'oidc', params };
}

/**
 * ADR 0015 start: the fields of the form redirect-sso submits to the gateway's `GET user-auth/oidc/authorize`
 * (or, on a SAML site, `user-auth/saml/authorize`), which redirects to the site's identity provider. Parameters the collection left unset are not sent.
 */
export function ssoStartFields(siteId: string, params: SsoParameters): [string, string][] {
  const fields: [string, string][] = [['siteId', siteId]];
  for (const name of SSO_PARAMETER_NAMES) {
    const value = params[name];
    if (value !== undefined) fields.push([name, value]);
  }
  return fields;
}

/** The content key (group `sso`) of a refused finish, by the gateway's code (ADR 0015 "Errors"). */
export function ssoRefusalKey(code: string): string {
  switch (code) {
    case 'SSO_STATE_INVALID':
      return 'error.state';
    case 'SSO_CODE_REJECTED':
      return 'error.code';
    case 'SSO_ID_TOKEN_INVALID':
    case 'SSO_NONCE_MISMATCH':
      return 'error.token';
    case 'SSO_ACCOUNT_NOT_CARDHOLDER':
      return 'error.notCardholder';
    case 'SSO_ACCOUNT_ELSEWHERE':
      return 'error.accountElsewhere';
    default:
      return 'error.failed';
  }
}
