import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serializeCookie } from '../../../gateway/auth/session-cookies';
import { issueResponse, generateTestSamlIdpKey, type ReadRequest, type ResponseOrder, type TestSamlIdpKey } from '../../../gateway/sso/test-saml-idp';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase } from '../support/database-legs';
import { postSaml, startSaml } from '../support/saml-browser';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';

/**
 * SPEC §7 "SAML SSO session and assertion" (docs/decisions/0028-sso-saml.md) on rheinbank, a de_de site on the
 * gateway's test SAML identity provider: the AuthnRequest, the assertion consumer service and each of its checks.
 * Every refusal is a 4xx page in German offering to start again, with no session, and a log line naming the check.
 */
const SITE = 'rheinbank';
const ACS = `/api/user-auth/saml/acs/${SITE}`;
const ANNA = { email: 'anna.becker@example.com', givenName: 'Anna', familyName: 'Becker' };

let key: TestSamlIdpKey;
beforeAll(() => {
  key = generateTestSamlIdpKey(new Date());
});

/** The browser's binding cookie (ADR 0028 "Login CSRF") as the last start set it: what `post` sends back. */
let bindingCookie = '';

async function start(app: FastifyInstance, cookie = ''): Promise<ReadRequest> {
  const started = await startSaml(app, SITE, { cookie });
  expect(new URL(String(started.answer.headers.location), 'http://portal.test').pathname).toBe('/test-saml-idp/sso');
  bindingCookie = started.binding;
  return started.request;
}

const post = (app: FastifyInstance, samlResponse: string, cookie = bindingCookie) => postSaml(app, SITE, samlResponse, { cookie });

const cookieNames = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]).map((line) => line.slice(0, line.indexOf('=')));

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

  const order = (request: ReadRequest, extra: Partial<ResponseOrder> = {}): ResponseOrder => ({ request, person: ANNA, now: gateway.clock.now(), ...extra });

  describe('a good Response', () => {
    it.each(['response', 'assertion', 'both'] as const)('signed on the %s signs the holder in and lands on the profile in German', async (signed) => {
      const request = await start(app);
      const answer = await post(app, issueResponse(key, order(request, { signed })));
      expect(answer.statusCode, answer.body).toBe(303);
      expect(answer.headers.location).toBe('/rheinbank/de_de/account/profile');
      expect(cookieNames(answer.headers['set-cookie'])).toContain('SESSION');
      // The browser binding is spent with the sign-in (ADR 0028 "Login CSRF").
      expect([answer.headers['set-cookie'] ?? []].flat()).toContainEqual(expect.stringMatching(/^gmap_saml_binding=; Path=\/; Expires=Thu, 01 Jan 1970/));
      const user = await gateway.test.db.query<{ email: string; first_name: string }>('select email, first_name from users where email = $1', [ANNA.email]);
      expect(user.rows[0]).toMatchObject({ email: ANNA.email, first_name: 'Anna' });
    });

    it("is what the test identity provider's people list posts, to the site's assertion consumer service", async () => {
      const started = await app.inject({ method: 'GET', url: `/api/user-auth/saml/authorize?siteId=${SITE}` });
      const page = await app.inject({ method: 'GET', url: String(started.headers.location) });
      expect(page.statusCode, page.body).toBe(200);
      expect(page.body).toContain('<html lang="de-DE"');
      expect(page.body).toContain(`action="${ACS}"`);
      expect(page.body).toContain('anna.becker@example.com');
      const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(page.body)![1]!;
      const binding = [started.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith('gmap_saml_binding='))!;
      expect((await post(app, samlResponse, binding.split(';')[0])).statusCode).toBe(303);
    });

    it('links an existing card holder by e-mail, as OIDC does, and keeps them one account', async () => {
      for (let round = 0; round < 2; round += 1) {
        const request = await start(app);
        expect((await post(app, issueResponse(key, order(request)))).statusCode).toBe(303);
      }
      const count = await gateway.test.db.query<{ n: number }>('select count(*)::int as n from users where email = $1', [ANNA.email]);
      expect(count.rows[0]!.n).toBe(1);
    });
  });

  describe('every check refuses its wrong Response with a German page, no session and a log line naming it', () => {
    const cases = [
      ['unsigned', 'signature'],
      ['wrapped', 'signature'],
      ['foreign-key', 'signature'],
      ['tampered', 'signature'],
      ['wrong-audience', 'audience'],
      ['wrong-destination', 'destination'],
      ['wrong-recipient', 'recipient'],
      ['wrong-issuer', 'issuer'],
      ['expired', 'time'],
      ['not-yet-valid', 'time'],
      ['unknown-in-response-to', 'in-response-to'],
    ] as const;
    it.each(cases)('%s: the %s check', async (fault, check) => {
      const request = await start(app);
      const answer = await post(app, issueResponse(key, order(request, { fault })));
      expect(answer.statusCode, answer.body).toBe(401);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.body).toContain('Wir konnten Sie nicht anmelden');
      expect(answer.body).toContain('href="/api/user-auth/saml/authorize?siteId=rheinbank"');
      expect(cookieNames(answer.headers['set-cookie'])).not.toContain('SESSION');
      const refused = lines.filter((line) => line.includes('SAML response refused'));
      expect(refused).toHaveLength(1);
      expect(JSON.parse(refused[0]!)).toMatchObject({ samlCheck: check, siteId: SITE });
      expect(lines.join('\n')).not.toContain('Assertion');
      expect((await gateway.test.db.query('select 1 from users where email like $1', ['%anna.becker@example.com'])).rows).toHaveLength(0);
    });

    it('login CSRF: a Response answering a request started in another browser, or in none, is refused: the browser check', async () => {
      const attackers = await start(app);
      const attackersCookie = bindingCookie;
      await start(app, '');
      const victimsCookie = bindingCookie;
      expect(victimsCookie).not.toBe(attackersCookie);
      for (const [cookie, request] of [
        [victimsCookie, attackers],
        ['', await start(app)],
      ] as const) {
        const answer = await post(app, issueResponse(key, order(request)), cookie);
        expect(answer.statusCode, answer.body).toBe(401);
        expect(answer.body).toContain('Diese Anmeldung wurde in einem anderen Browser begonnen');
        expect(answer.body).toContain('href="/api/user-auth/saml/authorize?siteId=rheinbank"');
        expect(cookieNames(answer.headers['set-cookie'])).not.toContain('SESSION');
      }
      const refused = lines.filter((line) => line.includes('SAML response refused')).map((line) => JSON.parse(line) as { samlCheck: string });
      expect(refused.map(({ samlCheck }) => samlCheck)).toEqual(['browser', 'browser']);
      expect((await gateway.test.db.query('select 1 from users where email = $1', [ANNA.email])).rows).toHaveLength(0);
    });

    it('the binding cookie: httpOnly, SameSite=None and Secure over https (the ACS is a cross-site POST), Lax over plain http; kept for a second start', async () => {
      const started = async (cookie = '') =>
        [(await app.inject({ method: 'GET', url: `/api/user-auth/saml/authorize?siteId=${SITE}`, headers: { cookie } })).headers['set-cookie'] ?? []]
          .flat()
          .find((line) => line.startsWith('gmap_saml_binding='))!;
      // This test gateway runs in development over plain http, where browsers drop a SameSite=None cookie without Secure.
      const plain = await started();
      expect(plain).toMatch(/^gmap_saml_binding=[A-Za-z0-9_-]{43}; Path=\/; Expires=[^;]+; SameSite=Lax; HttpOnly$/);
      const first = plain.split(';')[0]!;
      expect((await started(first)).split(';')[0]).toBe(first);
      // Over https (production: secureCookies), what the start writes.
      expect(serializeCookie('gmap_saml_binding', 'n', { httpOnly: true, secure: true, crossSite: true })).toBe(
        'gmap_saml_binding=n; Path=/; SameSite=None; HttpOnly; Secure',
      );
    });

    it('a Response posted twice: its request is spent by the first', async () => {
      const request = await start(app);
      const samlResponse = issueResponse(key, order(request));
      expect((await post(app, samlResponse)).statusCode).toBe(303);
      const again = await post(app, samlResponse);
      expect(again.statusCode).toBe(401);
      expect(JSON.parse(lines.find((line) => line.includes('SAML response refused'))!)).toMatchObject({ samlCheck: 'in-response-to' });
    });

    it('an assertion used once already, even answering a fresh request: the replay check', async () => {
      const first = await start(app);
      expect((await post(app, issueResponse(key, order(first, { assertionId: '_replayed-assertion-0001' })))).statusCode).toBe(303);
      const second = await start(app);
      const answer = await post(app, issueResponse(key, order(second, { assertionId: '_replayed-assertion-0001' })));
      expect(answer.statusCode).toBe(401);
      expect(JSON.parse(lines.find((line) => line.includes('SAML response refused'))!)).toMatchObject({ samlCheck: 'replay' });
    });

    it('a request older than ten minutes: the in-response-to check', async () => {
      const request = await start(app);
      gateway.clock.advance(11 * 60);
      const answer = await post(app, issueResponse(key, order(request, { now: new Date() })));
      expect(answer.statusCode).toBe(401);
      expect(JSON.parse(lines.find((line) => line.includes('SAML response refused'))!)).toMatchObject({ samlCheck: 'in-response-to' });
    });

    it('not base64, not XML, or no Response: 400, the malformed check', async () => {
      for (const body of ['%%%', Buffer.from('not xml').toString('base64'), Buffer.from('<x/>').toString('base64')]) {
        const answer = await post(app, body);
        expect(answer.statusCode, body).toBe(400);
        expect(answer.body).toContain('Wir konnten Sie nicht anmelden');
      }
    });
  });

  describe('the site', () => {
    it('publishes its SP metadata: entity id and assertion consumer service', async () => {
      const metadata = await app.inject({ method: 'GET', url: `/api/user-auth/saml/metadata/${SITE}` });
      expect(metadata.statusCode).toBe(200);
      expect(metadata.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
      expect(metadata.body).toContain('entityID="urn:example:rheinbank:praemienwelt"');
      expect(metadata.body).toContain('Location="http://127.0.0.1:8080/api/user-auth/saml/acs/rheinbank"');
    });

    it('a site that does not sign in with SAML has no SAML routes: 400 SSO_NOT_ENABLED', async () => {
      const answer = await app.inject({ method: 'GET', url: '/api/user-auth/saml/authorize?siteId=unionbank' });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'SSO_NOT_ENABLED' });
    });
  });
});
