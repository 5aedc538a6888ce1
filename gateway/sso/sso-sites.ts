import { createHash, randomBytes } from 'node:crypto';
import { featureConfigOf, type SiteConfig } from '../../schemas/site-config/types';
import type { Fixtures } from '../site-files/load-fixtures';

/**
 * The issuer identifier of the gateway's own test identity provider (ADR 0015). A site whose
 * `site_auth_profile.issuer_url` is exactly this is served in-process by `/test-idp/…`.
 */
export const TEST_IDP_ISSUER = 'http://127.0.0.1/test-idp';
/** Where the test identity provider's endpoints live on the gateway's own origin. */
export const TEST_IDP_BASE_PATH = '/test-idp';

/**
 * How the site's client authenticates at the token endpoint (ADR 0001 `site_auth_profile.client_auth`,
 * ADR 0015): a public client with PKCE only, or a confidential one whose secret or private key comes
 * from the environment, never from the fixture (fixtures are public data).
 */
export const CLIENT_AUTH_METHODS = ['none', 'client_secret_basic', 'private_key_jwt'] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** SPEC §3 `site_auth_profile` of a site whose auth_mechanism is SSO. */
export interface SsoSite {
  siteId: string;
  issuerUrl: string;
  clientId: string;
  /** The registered redirect URIs; a redirect_uri must equal one of them exactly. */
  redirectUris: readonly string[];
  clientAuth: ClientAuthMethod;
}

export function ssoSiteOf(site: SiteConfig): SsoSite | null {
  const profile = featureConfigOf(site, 'site_auth_profile');
  const { issuer_url: issuerUrl, client_id: clientId, redirect_uris: redirectUris } = profile;
  if (profile.auth_mechanism !== 'SSO' || profile.protocol === 'saml' || !issuerUrl || !clientId || !redirectUris) return null;
  const clientAuth = CLIENT_AUTH_METHODS.find((method) => method === profile.client_auth) ?? 'none';
  return { siteId: site.siteId, issuerUrl, clientId, redirectUris: redirectUris.split(' '), clientAuth };
}

/** The SSO sites registered as clients of the test identity provider, by client id. */
export function testIdpClients(fixtures: Fixtures): ReadonlyMap<string, SsoSite> {
  const clients = new Map<string, SsoSite>();
  for (const { config } of fixtures.sites.values()) {
    const sso = ssoSiteOf(config);
    if (sso && sso.issuerUrl === TEST_IDP_ISSUER) clients.set(sso.clientId, sso);
  }
  return clients;
}

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
export const randomToken = () => randomBytes(32).toString('base64url');

/** `state`, `nonce`, codes and verifiers: URL-safe, long enough to be unguessable, short enough to store. */
export const OPAQUE_VALUE = /^[A-Za-z0-9._~-]{16,128}$/;
/** RFC 7636: a PKCE verifier is 43–128 unreserved characters; S256 challenges are 43 base64url. */
export const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
export const pkceChallengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
