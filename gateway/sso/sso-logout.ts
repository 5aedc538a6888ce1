import { browserUrlOf, discoverIssuer, type RelyingPartyContext } from './relying-party';
import type { SsoSite } from './sso-sites';

/**
 * OpenID Connect RP-Initiated Logout 1.0 (ADR 0015, docs/decisions/0022-declared-calls.md): where to
 * send a person who signed out of an SSO site so their session at the identity provider ends too.
 *
 * The `end_session_endpoint` comes from the issuer's discovery document, the one sign-in discovered
 * and cached (openid-client checks it names this issuer). A provider that publishes none, or does
 * not answer, gives null: the local session has ended anyway and sign-out never waits on the provider.
 *
 * The request carries `client_id` and `post_logout_redirect_uri` (§2: the client id stands in for
 * `id_token_hint`, which the gateway does not keep after verifying the ID token at sign-in).
 * `post_logout_redirect_uri` is one of the site's registered redirect URIs (the redirect-sso page):
 * providers accept only registered ones, and landing there on an SSO site starts a fresh sign-in.
 */
export async function endSessionUrlOf(sso: SsoSite, postLogoutRedirectUri: string, context: RelyingPartyContext): Promise<string | null> {
  let endpoint: unknown;
  try {
    endpoint = (await discoverIssuer(sso, context)).end_session_endpoint;
  } catch {
    return null;
  }
  if (typeof endpoint !== 'string') return null;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.searchParams.append('client_id', sso.clientId);
  url.searchParams.append('post_logout_redirect_uri', postLogoutRedirectUri);
  return browserUrlOf(sso, url);
}
