import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateTestSamlIdpKey, issueResponse, type TestSamlIdpKey } from '../../../gateway/sso/test-saml-idp';
import { describeEachDatabase } from '../support/database-legs';
import { postSaml, startSaml } from '../support/saml-browser';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser } from '../support/test-browser';
import { withXsrf } from '../support/test-gateway';

/**
 * ADR 0015 "Account linking", ADR 0028, ADR 0017 threat model: an identity provider vouches for its own bank's people
 * only. An assertion of site S signs into an existing account only when that account already holds S (its
 * `user_sites` row; an account S's SSO created has one); a holder of another site only is refused, on both protocols,
 * with SSO_ACCOUNT_ELSEWHERE and nothing of the account touched.
 */
const PASSWORD = 'Firstbank#Holder77';

let key: TestSamlIdpKey;
beforeAll(() => {
  key = generateTestSamlIdpKey(new Date());
});

const cookieNames = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]).map((line) => line.slice(0, line.indexOf('=')));

/** The SAML sign-in at rheinbank (de_de) asserting `email`, as the test identity provider posts it. */
async function samlSignIn(app: FastifyInstance, gateway: SignInGateway, email: string) {
  const { request, binding } = await startSaml(app, 'rheinbank');
  const samlResponse = issueResponse(key, { request, person: { email, givenName: 'Anna', familyName: 'Becker' }, now: gateway.clock.now() });
  return postSaml(app, 'rheinbank', samlResponse, { cookie: binding });
}

/** The OIDC sign-in at unionbank as Grace (ub-000417), through the test identity provider. */
async function oidcSignIn(app: FastifyInstance) {
  const query = new URLSearchParams({ siteId: 'unionbank', redirect_uri: '/unionbank/en_us/account/redirect-sso' });
  const started = await app.inject({ method: 'GET', url: `/api/user-auth/oidc/authorize?${query.toString()}` });
  expect(started.statusCode, started.body).toBe(302);
  const binding = /gmap_sso_binding=([^;]+)/.exec(String(started.headers['set-cookie']))![1]!;
  const authorizeUrl = new URL(String(started.headers.location), 'http://portal.test');
  const authorize = await app.inject({ method: 'GET', url: `${authorizeUrl.pathname}${authorizeUrl.search}` });
  const interaction = new URL(String(authorize.headers.location), 'http://portal.test').searchParams.get('interaction')!;
  const chosen = await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: 'ub-000417' } });
  const back = new URL(chosen.json().redirectTo as string, 'http://portal.test');
  return app.inject({
    method: 'POST',
    url: '/api/user-auth/oidc/authorize',
    headers: withXsrf({ cookie: `gmap_sso_binding=${binding}` }),
    payload: { siteId: 'unionbank', code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
}

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let app: FastifyInstance;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg, { testSamlIdpKey: key });
    app = gateway.app;
  });
  afterEach(() => gateway.dispose());

  const sitesOf = async (userId: string) =>
    (await gateway.test.db.query<{ site_id: string }>('select site_id from user_sites where user_id = $1 order by site_id', [userId])).rows.map(
      (row) => row.site_id,
    );

  describe('SAML (rheinbank, the test SAML identity provider)', () => {
    it('an IdP of another bank asserting a firstbank holder: 409 SSO_ACCOUNT_ELSEWHERE, the German page, no session, nothing linked', async () => {
      const holder = await insertUser(gateway.test.db, { email: 'holder.one@example.com', password: PASSWORD, siteId: 'firstbank' });
      const answer = await samlSignIn(app, gateway, 'holder.one@example.com');
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.body).toContain('data-error="SSO_ACCOUNT_ELSEWHERE"');
      expect(answer.body).toContain('Zu dieser E-Mail-Adresse gehört bereits ein Konto');
      expect(answer.body).toContain('href="/api/user-auth/saml/authorize?siteId=rheinbank"');
      expect(cookieNames(answer.headers['set-cookie'])).not.toContain('SESSION');
      expect(await sitesOf(holder)).toEqual(['firstbank']);
    });

    it('a holder of rheinbank itself (a password account of the site) is signed in', async () => {
      const holder = await insertUser(gateway.test.db, { email: 'holder.two@example.com', password: PASSWORD, siteId: 'rheinbank' });
      const answer = await samlSignIn(app, gateway, 'holder.two@example.com');
      expect(answer.statusCode, answer.body).toBe(303);
      expect(cookieNames(answer.headers['set-cookie'])).toContain('SESSION');
      expect(await sitesOf(holder)).toEqual(['rheinbank']);
    });

    it("an account rheinbank's SSO created is signed into again", async () => {
      expect((await samlSignIn(app, gateway, 'new.person@example.com')).statusCode).toBe(303);
      expect((await samlSignIn(app, gateway, 'new.person@example.com')).statusCode).toBe(303);
    });
  });

  describe('OpenID Connect (unionbank, the test identity provider)', () => {
    it('a firstbank holder with the address unionbank asserts: 409 SSO_ACCOUNT_ELSEWHERE, no session, nothing linked', async () => {
      const holder = await insertUser(gateway.test.db, { email: 'grace.villanueva@example.com', password: PASSWORD, siteId: 'firstbank' });
      const answer = await oidcSignIn(app);
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json()).toMatchObject({ error: 'SSO_ACCOUNT_ELSEWHERE' });
      expect(cookieNames(answer.headers['set-cookie'])).not.toContain('SESSION');
      expect(await sitesOf(holder)).toEqual(['firstbank']);
    });

    it('a holder of unionbank is signed in', async () => {
      const holder = await insertUser(gateway.test.db, { email: 'grace.villanueva@example.com', password: PASSWORD, siteId: 'unionbank' });
      const answer = await oidcSignIn(app);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(await sitesOf(holder)).toEqual(['unionbank']);
    });
  });
});
