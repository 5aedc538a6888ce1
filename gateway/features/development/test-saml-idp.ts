import type { FastifyInstance } from 'fastify';
import type { Fixtures } from '../../site-files/load-fixtures';
import { escapeHtml } from '../../http/html-text';
import { TEST_SAML_IDP_BASE_PATH, testSamlIdpSites, type SamlSite } from '../../sso/saml-sites';
import { plainPage, ssoText } from '../../sso/sso-pages';
import {
  issueLogoutResponse,
  issueResponse,
  readAuthnRequest,
  readLogoutRequest,
  testSamlIdpMetadata,
  type SamlPerson,
  type TestSamlIdpKey,
} from '../../sso/test-saml-idp';
import type { SsoIdentity } from '../../sso/sso-identities';
import type { Clock } from '../../time/clock';
import { fromContract } from '../../http/route-contract';

/**
 * The gateway's own SAML identity provider (docs/decisions/0028-sso-saml.md) at `/test-saml-idp/…` on the page root,
 * development only: its metadata, and its single sign-on service, which reads the AuthnRequest and shows its people
 * (`fixtures/sso-identities.json` under the site's SP entity id), each a button that posts a signed Response to the site's assertion consumer service,
 * and its single logout service, which keeps no session of its own and so answers every LogoutRequest of a site
 * it serves with a signed LogoutResponse to the site's single logout service.
 */
export async function testSamlIdpRoutes(
  app: FastifyInstance,
  options: { fixtures: Fixtures; clock: Clock; key: () => TestSamlIdpKey; identities: readonly SsoIdentity[] },
): Promise<void> {
  const { fixtures, clock, key, identities } = options;
  const sites = testSamlIdpSites(fixtures);
  const peopleOf = (site: SamlSite): SamlPerson[] => identities.filter((identity) => identity.clientId === site.spEntityId);

  app.route({
    ...fromContract(`GET ${TEST_SAML_IDP_BASE_PATH}/metadata`),
    handler: async (_request, reply) => {
      reply.header('content-type', 'application/samlmetadata+xml; charset=utf-8');
      return testSamlIdpMetadata(key());
    },
  });

  app.route<{ Querystring: { SAMLRequest: string; RelayState?: string } }>({
    ...fromContract(`GET ${TEST_SAML_IDP_BASE_PATH}/sso`),
    handler: async (request, reply) => {
      const read = await readAuthnRequest(request.query.SAMLRequest, sites);
      const { site } = read;
      const text = (name: string, values?: Record<string, string>) => ssoText(fixtures.content, site.locale, name, values);
      // The form posts to the ACS as a path: the provider and the portal share the gateway's origin (ADR 0015's deviation).
      const action = new URL(site.acsUrl).pathname;
      const now = clock.now();
      const forms = peopleOf(site).map((person) => {
        const response = issueResponse(key(), { request: read, person, now });
        const label = text('simulator.identity', { name: `${person.givenName} ${person.familyName}`, email: person.email });
        return `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="SAMLResponse" value="${escapeHtml(response)}"><input type="hidden" name="RelayState" value="${escapeHtml(request.query.RelayState ?? '')}"><button type="submit">${escapeHtml(`${text('simulator.submit')}: ${label}`)}</button></form>`;
      });
      reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
      return plainPage(site.locale, text('title.testSamlIdp'), `<p>${escapeHtml(text('simulator.intro'))}</p>\n${forms.join('\n')}`);
    },
  });

  app.route<{ Querystring: { SAMLRequest: string; RelayState?: string } }>({
    ...fromContract(`GET ${TEST_SAML_IDP_BASE_PATH}/slo`),
    handler: async (request, reply) => {
      const read = await readLogoutRequest(request.query.SAMLRequest, sites);
      const target = new URL(issueLogoutResponse(key(), { request: read, now: clock.now(), relayState: request.query.RelayState || undefined }));
      // A path: the provider and the portal share the gateway's origin (ADR 0015's deviation).
      reply.header('cache-control', 'no-store');
      return reply.redirect(`${target.pathname}${target.search}`, 302);
    },
  });
}
