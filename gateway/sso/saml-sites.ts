import { featureConfigOf, type SiteConfig } from '../../schemas/site-config/types';
import { siteLocalesOf } from '../../schemas/site-config/site-locales';
import type { Fixtures } from '../site-files/load-fixtures';
import { DEFAULT_LOCALE } from '../locale';

/**
 * The metadata URL of the gateway's own test SAML identity provider (docs/decisions/0028-sso-saml.md).
 * A site whose `saml_idp_metadata_url` is exactly this is served in-process by `/test-saml-idp/…`.
 */
export const TEST_SAML_IDP_METADATA_URL = 'http://127.0.0.1/test-saml-idp/metadata';
/** Where the test SAML identity provider's endpoints live on the gateway's own origin. */
export const TEST_SAML_IDP_BASE_PATH = '/test-saml-idp';
/** Its entity id, as its metadata names it. */
export const TEST_SAML_IDP_ENTITY_ID = 'http://127.0.0.1/test-saml-idp';

/** The test identity provider's endpoints are on the gateway's own origin: a path for the browser, as for OIDC (ADR 0015). */
export function samlBrowserUrlOf(url: string): string {
  const parsed = new URL(url);
  return parsed.origin === new URL(TEST_SAML_IDP_ENTITY_ID).origin ? `${parsed.pathname}${parsed.search}` : url;
}

/** `NameID` format that carries the e-mail address when the site names no attribute for it. */
export const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** SPEC §3 `site_auth_profile` of a site whose auth_mechanism is SSO and protocol `saml` (ADR 0028). */
export interface SamlSite {
  siteId: string;
  /** The identity provider's metadata: where to fetch it, or the document itself. */
  idpMetadata: { url: string } | { xml: string };
  /** This portal's entity id at the identity provider: the Issuer of its requests and the Audience it accepts. */
  spEntityId: string;
  /** The assertion consumer service, as the identity provider posts to it and writes it in Destination and Recipient. */
  acsUrl: string;
  /**
   * The single logout service, where the identity provider sends its LogoutResponse (HTTP-Redirect): the ACS's
   * sibling, `{PUBLIC_URL}/api/user-auth/saml/slo/{siteId}`, so a site names no second URL.
   */
  sloUrl: string;
  /** The attribute carrying the e-mail address, or null: the NameID in emailAddress format carries it. */
  emailAttribute: string | null;
  /** The site's own language, for the pages the assertion consumer answers itself. */
  locale: string;
}

export function samlSiteOf(site: SiteConfig): SamlSite | null {
  const profile = featureConfigOf(site, 'site_auth_profile');
  const { saml_idp_metadata_url: url, saml_idp_metadata: xml, saml_sp_entity_id: spEntityId, saml_acs_url: acsUrl } = profile;
  if (profile.auth_mechanism !== 'SSO' || profile.protocol !== 'saml' || !spEntityId || !acsUrl) return null;
  const idpMetadata = url ? { url } : xml ? { xml } : null;
  if (!idpMetadata) return null;
  return {
    siteId: site.siteId,
    idpMetadata,
    spEntityId,
    acsUrl,
    sloUrl: new URL(`../slo/${encodeURIComponent(site.siteId)}`, acsUrl).toString(),
    emailAttribute: profile.saml_email_attribute ?? null,
    locale: siteLocalesOf(site)[0] ?? DEFAULT_LOCALE,
  };
}

export function samlSites(fixtures: Fixtures): SamlSite[] {
  return [...fixtures.sites.values()].flatMap(({ config }) => samlSiteOf(config) ?? []);
}

/** The SAML sites served by the test identity provider, by SP entity id. */
export function testSamlIdpSites(fixtures: Fixtures): ReadonlyMap<string, SamlSite> {
  return new Map(
    samlSites(fixtures).flatMap((site) => ('url' in site.idpMetadata && site.idpMetadata.url === TEST_SAML_IDP_METADATA_URL ? [[site.spEntityId, site]] : [])),
  );
}
