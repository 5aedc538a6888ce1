import type { IssuerTransport } from './relying-party';
import type { SsoSite } from './sso-sites';

/**
 * OpenID Connect RP-Initiated Logout 1.0 (ADR 0015, docs/decisions/0022-declared-calls.md): where to
 * send a person who signed out of an SSO site so their session at the identity provider ends too.
 *
 * The `end_session_endpoint` comes from the issuer's discovery document, read through the same issuer
 * transport as sign-in. A provider that publishes none, or does not answer, gives null: the local
 * session has ended anyway and sign-out never waits on the provider.
 *
 * The request carries `client_id` and `post_logout_redirect_uri` (§2: the client id stands in for
 * `id_token_hint`, which the gateway does not keep after verifying the ID token at sign-in).
 * `post_logout_redirect_uri` is one of the site's registered redirect URIs (the redirect-sso page):
 * providers accept only registered ones, and landing there on an SSO site starts a fresh sign-in.
 */
export async function endSessionUrlOf(sso: SsoSite, postLogoutRedirectUri: string, transport: IssuerTransport): Promise<string | null> {
  const endpoint = await endSessionEndpointOf(sso, transport);
  if (endpoint === null) return null;
  const query = new URLSearchParams({ client_id: sso.clientId, post_logout_redirect_uri: postLogoutRedirectUri });
  return `${endpoint}${endpoint.includes('?') ? '&' : '?'}${query.toString()}`;
}

async function endSessionEndpointOf(sso: SsoSite, transport: IssuerTransport): Promise<string | null> {
  const answer = await transport.getJson(`${sso.issuerUrl}/.well-known/openid-configuration`);
  const body = answer.body;
  if (answer.status !== 200 || typeof body !== 'object' || body === null) return null;
  const { issuer, end_session_endpoint: endpoint } = body as Record<string, unknown>;
  // OpenID Connect Discovery 1.0 §4.3: a document naming another issuer is not this issuer's.
  if (issuer !== sso.issuerUrl || typeof endpoint !== 'string' || !isEndpoint(endpoint)) return null;
  return endpoint;
}

/** An absolute http(s) URL, or a path on the gateway's own origin (the test provider's, ADR 0015). */
function isEndpoint(value: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//')) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
