import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionIdOf } from '../../../gateway/auth/session-store';
import { samlSiteOf, testSamlIdpSites } from '../../../gateway/sso/saml-sites';
import {
  generateTestSamlIdpKey,
  issueLogoutResponse,
  issueResponse,
  readAuthnRequest,
  readLogoutRequest,
  testSamlIdpMetadata,
  type ReadLogoutRequest,
  type SamlLogoutFault,
  type TestSamlIdpKey,
} from '../../../gateway/sso/test-saml-idp';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase } from '../support/database-legs';
import { postSaml, startSaml } from '../support/saml-browser';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { realFixtures, withXsrf } from '../support/test-gateway';

/**
 * SAML single logout (docs/decisions/0028-sso-saml.md "Sign-out") on rheinbank and the test SAML identity provider,
 * whose metadata offers a SingleLogoutService: the sign-out ends the session and answers a LogoutRequest for the
 * provider; the provider's LogoutResponse at the site's SLO service is checked (signature, issuer, destination,
 * InResponseTo of a request of ours, spent once, status) and then sends the browser to the signed-out page.
 */
const SITE = 'rheinbank';
const ANNA = { email: 'anna.becker@example.com', givenName: 'Anna', familyName: 'Becker' };

let key: TestSamlIdpKey;
beforeAll(() => {
  key = generateTestSamlIdpKey(new Date());
});

function cookiesOf(setCookie: string | string[] | undefined): Map<string, string> {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
  return new Map(lines.map((line) => [line.slice(0, line.indexOf('=')), line.split(';')[0]!.slice(line.indexOf('=') + 1)]));
}

const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://portal.test');
  return `${parsed.pathname}${parsed.search}`;
};

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let app: FastifyInstance;
  let lines: string[];
  beforeEach(async () => {
    const captured = capturingLogger();
    lines = captured.lines;
    gateway = await openSignInGateway(leg, { testSamlIdpKey: key, logger: captured.logger });
    app = gateway.app;
  });
  afterEach(() => gateway.dispose());

  /** Signs Anna in through the test provider: the SESSION token. */
  async function signIn(): Promise<string> {
    const { request, binding } = await startSaml(app, SITE);
    const posted = await postSaml(app, SITE, issueResponse(key, { request, person: ANNA, now: gateway.clock.now() }), { cookie: binding });
    expect(posted.statusCode, posted.body).toBe(303);
    return cookiesOf(posted.headers['set-cookie']).get('SESSION')!;
  }

  const logout = (session: string) =>
    app.inject({ method: 'POST', url: '/api/logout', headers: withXsrf({ 'content-type': 'text/plain', cookie: `SESSION=${session}` }), payload: 'null' });

  /** Signs in, signs out: the LogoutRequest the test provider read from the sign-out's answer. */
  async function signOut(): Promise<{ session: string; endSessionUrl: string; request: ReadLogoutRequest }> {
    const session = await signIn();
    const answer = await logout(session);
    expect(answer.statusCode, answer.body).toBe(200);
    const { endSessionUrl } = answer.json<{ endSessionUrl: string }>();
    const url = new URL(endSessionUrl, 'http://portal.test');
    expect(url.pathname).toBe('/test-saml-idp/slo');
    const request = await readLogoutRequest(url.searchParams.get('SAMLRequest')!, testSamlIdpSites(await realFixtures()));
    return { session, endSessionUrl, request };
  }

  it('the sign-out ends the session and sends a LogoutRequest naming the NameID and SessionIndex of its assertion', async () => {
    const { session, request } = await signOut();
    expect(request.nameId).toBe(ANNA.email);
    expect(request.sessionIndex).toMatch(/^_[0-9a-f]{40}$/);
    const stored = await gateway.test.db.query<{ revoked: boolean }>('select revoked_at is not null as revoked from sessions where id = $1', [
      sessionIdOf(session),
    ]);
    expect(stored.rows).toEqual([{ revoked: true }]);
    expect(
      (await app.inject({ method: 'GET', url: `/api/user-attribute/user/background/${SITE}`, headers: { cookie: `SESSION=${session}` } })).statusCode,
    ).toBe(401);
  });

  it("the test provider answers at the site's SLO service, which checks the LogoutResponse and goes to the signed-out page; once only", async () => {
    const { endSessionUrl } = await signOut();
    const provider = await app.inject({ method: 'GET', url: endSessionUrl });
    expect(provider.statusCode, provider.body).toBe(302);
    const back = String(provider.headers.location);
    expect(back).toMatch(/^\/api\/user-auth\/saml\/slo\/rheinbank\?SAMLResponse=[^&]+&SigAlg=[^&]+&Signature=[^&]+$/);
    const landed = await app.inject({ method: 'GET', url: back });
    expect(landed.statusCode, landed.body).toBe(303);
    expect(landed.headers.location).toBe('/rheinbank/de_de/account/redirect-sso');

    const again = await app.inject({ method: 'GET', url: back });
    expect(again.statusCode).toBe(401);
    expect(JSON.parse(lines.find((line) => line.includes('SAML logout response refused'))!)).toMatchObject({ samlCheck: 'in-response-to', siteId: SITE });
  });

  const faults: [SamlLogoutFault, string][] = [
    ['unsigned', 'signature'],
    ['tampered', 'signature'],
    ['foreign-key', 'signature'],
    ['wrong-issuer', 'issuer'],
    ['wrong-destination', 'destination'],
    ['unknown-in-response-to', 'in-response-to'],
    ['failed', 'status'],
  ];
  it.each(faults)('a LogoutResponse %s is refused by the %s check with a German page saying the bank did not confirm', async (fault, check) => {
    const { request } = await signOut();
    const answer = await app.inject({ method: 'GET', url: pathOf(issueLogoutResponse(key, { request, now: gateway.clock.now(), fault })) });
    expect(answer.statusCode, answer.body).toBe(401);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toContain('<html lang="de-DE"');
    expect(answer.body).toContain('Ihre Bank hat nicht bestätigt');
    expect(answer.body).toContain('href="/rheinbank/de_de/account/redirect-sso"');
    const refused = lines.filter((line) => line.includes('SAML logout response refused'));
    expect(refused).toHaveLength(1);
    expect(JSON.parse(refused[0]!)).toMatchObject({ samlCheck: check, siteId: SITE });
  });

  it("a LogoutResponse answering a sign-in's AuthnRequest, not a LogoutRequest, is refused: the request kinds are apart", async () => {
    const started = await app.inject({ method: 'GET', url: `/api/user-auth/saml/authorize?siteId=${SITE}` });
    const samlRequest = new URL(String(started.headers.location), 'http://portal.test').searchParams.get('SAMLRequest')!;
    const authn = await readAuthnRequest(samlRequest, testSamlIdpSites(await realFixtures()));
    const answer = await app.inject({ method: 'GET', url: pathOf(issueLogoutResponse(key, { request: authn, now: gateway.clock.now() })) });
    expect(answer.statusCode).toBe(401);
    expect(JSON.parse(lines.find((line) => line.includes('SAML logout response refused'))!)).toMatchObject({ samlCheck: 'in-response-to' });
  });

  it("no SAMLResponse or the provider's own LogoutRequest: 400, the malformed check; a field given twice: 400 before it", async () => {
    const { request } = await signOut();
    const good = pathOf(issueLogoutResponse(key, { request, now: gateway.clock.now() }));
    for (const url of [`/api/user-auth/saml/slo/${SITE}`, `/api/user-auth/saml/slo/${SITE}?SAMLRequest=abc`]) {
      const answer = await app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(400);
      expect(answer.body).toContain('Sie sind abgemeldet.');
    }
    // A field given twice is a list, not the text the request schema declares: refused before any check.
    const doubled = await app.inject({ method: 'GET', url: `${good}&SigAlg=x` });
    expect(doubled.statusCode).toBe(400);
    expect(doubled.json()).toMatchObject({ error: 'VALIDATION_FAILED' });
    expect(JSON.stringify(doubled.json())).toContain('SigAlg');
  });

  it('its SP metadata names the single logout service, HTTP-Redirect', async () => {
    const metadata = await app.inject({ method: 'GET', url: `/api/user-auth/saml/metadata/${SITE}` });
    expect(metadata.body).toContain(
      '<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="http://127.0.0.1:8080/api/user-auth/saml/slo/rheinbank"/>',
    );
  });

  it("a LogoutResponse answering another SAML site's LogoutRequest is refused at this site's SLO service: the in-response-to check", async () => {
    // A second SAML site on the same provider (its metadata inline), beside rheinbank.
    const fixtures = await realFixtures();
    const sites = new Map(fixtures.sites);
    const config = structuredClone(sites.get(SITE)!.config);
    config.siteId = 'rheinbank-zwei';
    const profile = config.siteFeatureConfigurations.find(({ name }) => name === 'site_auth_profile')!;
    const { saml_idp_metadata_url: _url, ...rest } = profile.featureConfig;
    profile.featureConfig = {
      ...rest,
      saml_sp_entity_id: 'urn:example:rheinbank:zwei',
      saml_acs_url: 'http://127.0.0.1:8080/api/user-auth/saml/acs/rheinbank-zwei',
      saml_idp_metadata: testSamlIdpMetadata(key),
    };
    sites.set('rheinbank-zwei', { ...sites.get(SITE)!, config });
    await gateway.dispose();
    const captured = capturingLogger();
    lines = captured.lines;
    gateway = await openSignInGateway(leg, { testSamlIdpKey: key, logger: captured.logger, fixtures: { ...fixtures, sites } });
    app = gateway.app;
    const { request } = await signOut();
    const zwei = samlSiteOf(config)!;
    const answer = await app.inject({
      method: 'GET',
      url: pathOf(issueLogoutResponse(key, { request: { ...request, site: zwei }, now: gateway.clock.now() })),
    });
    expect(answer.statusCode).toBe(401);
    expect(JSON.parse(lines.find((line) => line.includes('SAML logout response refused'))!)).toMatchObject({
      samlCheck: 'in-response-to',
      siteId: 'rheinbank-zwei',
    });
    // Still good at its own site.
    const own = await app.inject({ method: 'GET', url: pathOf(issueLogoutResponse(key, { request, now: gateway.clock.now() })) });
    expect(own.statusCode).toBe(303);
  });

  it("an agent's account never signs in through the SAML site, so no LogoutRequest ever names it", async () => {
    const agent = 'agent.saml@example.com';
    await gateway.test.db.query(
      "insert into users (email, password_hash, first_name, last_name, status, roles) values ($1, 'x', 'Ada', 'Agent', 'ACTIVE', '{ROLE_CONCIERGE}')",
      [agent],
    );
    const { request, binding } = await startSaml(app, SITE);
    const posted = await postSaml(
      app,
      SITE,
      issueResponse(key, { request, person: { email: agent, givenName: 'Ada', familyName: 'Agent' }, now: gateway.clock.now() }),
      {
        cookie: binding,
      },
    );
    expect(posted.statusCode).toBe(403);
    expect(posted.body).toContain('Mit diesem Konto ist keine Anmeldung über Ihre Bank möglich.');
    expect(cookiesOf(posted.headers['set-cookie']).has('SESSION')).toBe(false);
    expect((await gateway.test.db.query('select 1 from saml_sessions')).rows).toHaveLength(0);
  });

  describe('without what a LogoutRequest needs', () => {
    it('a session of which the gateway kept no NameID (opened before it kept them): a local sign-out', async () => {
      const session = await signIn();
      await gateway.test.db.query('delete from saml_sessions');
      const answer = await logout(session);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ revoked: true, endSessionUrl: null });
    });
  });
});
