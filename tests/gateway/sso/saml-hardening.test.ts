import { signSamlPost } from '@node-saml/node-saml/lib/saml-post-signing.js';
import type { FastifyInstance } from 'fastify';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import { SIGN_IN_LIMITS } from '../../../gateway/limits/sign-in-limits';
import { issueResponse, generateTestSamlIdpKey, type ReadRequest, type TestSamlIdpKey } from '../../../gateway/sso/test-saml-idp';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase } from '../support/database-legs';
import { postSaml, startSaml } from '../support/saml-browser';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser } from '../support/test-browser';
import { realFixtures } from '../support/test-gateway';

/**
 * The assertion consumer service of rheinbank (de_de) against what a penetration test posted to it
 * (docs/decisions/0028-sso-saml.md): Responses built to cost CPU, a signed error status with an assertion, odd
 * characters in asserted values. Each is refused with the German page and a log line naming the check.
 */
const SITE = 'rheinbank';
const ACS = `/api/user-auth/saml/acs/${SITE}`;
const ANNA = { email: 'anna.becker@example.com', givenName: 'Anna', familyName: 'Becker' };
const SIGNING = { signatureAlgorithm: 'sha256', digestAlgorithm: 'sha256' } as const;

let key: TestSamlIdpKey;
beforeAll(() => {
  key = generateTestSamlIdpKey(new Date());
});

/** The browser's binding cookie (ADR 0028 "Login CSRF") as the last start set it: what `post` sends back. */
let bindingCookie = '';

async function start(app: FastifyInstance): Promise<ReadRequest> {
  const started = await startSaml(app, SITE);
  bindingCookie = started.binding;
  return started.request;
}

const post = (app: FastifyInstance, samlResponse: string, headers: Record<string, string> = {}) =>
  postSaml(app, SITE, samlResponse, { cookie: bindingCookie, ...headers });

const xmlOf = (samlResponse: string) => Buffer.from(samlResponse, 'base64').toString('utf8');
const base64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
/** The Response signed again with the provider's key after `bend` changed it: what a provider itself could send. */
const resigned = (samlResponse: string, bend: (xml: string) => string) =>
  base64(signSamlPost(bend(xmlOf(samlResponse)), "/*[local-name()='Response']", { privateKey: key.privateKey, ...SIGNING }));

/**
 * The tester's payload: the signatures stripped, a made-up one referencing the Response's ID, and `depth` nested
 * elements in samlp:Extensions. Its InResponseTo is a real pending request, so it reaches the signature check.
 */
function deepUnsignedResponse(samlResponse: string, depth: number): string {
  const xml = xmlOf(samlResponse).replace(/<Signature[\s\S]*?<\/Signature>/g, '');
  const responseId = /<samlp:Response[^>]* ID="([^"]+)"/.exec(xml)![1]!;
  const fake = `<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/><SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/><Reference URI="#${responseId}"><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/><Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></Transforms><DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><DigestValue>AAAA</DigestValue></Reference></SignedInfo><SignatureValue>${'A'.repeat(344)}</SignatureValue></Signature>`;
  return base64(
    xml
      .replace('</saml:Issuer>', `</saml:Issuer>${fake}`)
      .replace('<samlp:Status>', `<samlp:Extensions>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</samlp:Extensions><samlp:Status>`),
  );
}

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

  const genuine = (request: ReadRequest) => issueResponse(key, { request, person: ANNA, now: gateway.clock.now() });
  /** Unsigned, for `resigned` to sign the changed Response. */
  const unsigned = (request: ReadRequest) => issueResponse(key, { request, person: ANNA, now: gateway.clock.now(), fault: 'unsigned' });
  /** Signed on the assertion only, for `resigned` to sign the changed Response. */
  const assertionSigned = (request: ReadRequest) => issueResponse(key, { request, person: ANNA, now: gateway.clock.now(), signed: 'assertion' });
  const refusedCheck = () => JSON.parse(lines.find((line) => line.includes('SAML response refused'))!) as { samlCheck: string };
  const noAnna = async () => expect((await gateway.test.db.query('select 1 from users where email = $1', [ANNA.email])).rows).toHaveLength(0);

  describe('a Response built to cost CPU is refused before any signature work', () => {
    it('5,000 nested elements under a made-up Signature: 400, the malformed check, at once', async () => {
      const request = await start(app);
      const began = performance.now();
      const answer = await post(app, deepUnsignedResponse(genuine(request), 5000));
      const took = performance.now() - began;
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.body).toContain('Wir konnten Sie nicht anmelden');
      expect(refusedCheck()).toMatchObject({ samlCheck: 'malformed' });
      // Without the guard xml-crypto canonicalises the nest for the made-up signature: seconds, not milliseconds.
      expect(took).toBeLessThan(1000);
    });

    it('more elements than a Response has, flat: the malformed check', async () => {
      const request = await start(app);
      const flat = xmlOf(genuine(request)).replace('<samlp:Status>', `<samlp:Extensions>${'<a/>'.repeat(3000)}</samlp:Extensions><samlp:Status>`);
      const answer = await post(app, base64(flat));
      expect(answer.statusCode).toBe(400);
      expect(refusedCheck()).toMatchObject({ samlCheck: 'malformed' });
    });

    it('a DOCTYPE, which SAML forbids, even in a Response the provider signed: the malformed check', async () => {
      const request = await start(app);
      const answer = await post(app, base64(`<!DOCTYPE Response [<!ENTITY a "b">]>\n${xmlOf(genuine(request))}`));
      expect(answer.statusCode).toBe(400);
      expect(refusedCheck()).toMatchObject({ samlCheck: 'malformed' });
      await noAnna();
    });

    it('a body over 64 KiB: 413 before the Response is read', async () => {
      const request = await start(app);
      const padded = xmlOf(genuine(request)).replace('<samlp:Status>', `<!--${'x'.repeat(70 * 1024)}--><samlp:Status>`);
      const answer = await post(app, base64(padded));
      expect(answer.statusCode).toBe(413);
      expect(answer.body).toContain('data-error="PAYLOAD_TOO_LARGE"');
      expect(answer.body).toContain('Wir konnten Sie nicht anmelden');
      expect(answer.body).toContain('href="/api/user-auth/saml/authorize?siteId=rheinbank"');
      // An API client asking for JSON gets the machine code, and a text that states the ACS's own limit.
      const json = await post(app, base64(padded), { accept: 'application/json' });
      expect(json.statusCode).toBe(413);
      expect(json.json()).toEqual({
        error: 'PAYLOAD_TOO_LARGE',
        message: 'The SAML response is larger than the 64 KiB limit of the assertion consumer service.',
      });
    });

    it("the test provider's genuine Response, signed twice, stays far below the limits", async () => {
      const request = await start(app);
      const samlResponse = genuine(request);
      expect(new URLSearchParams({ SAMLResponse: samlResponse }).toString().length).toBeLessThan(16 * 1024);
      expect((await post(app, samlResponse)).statusCode).toBe(303);
    });
  });

  describe('only a Success status signs anyone in', () => {
    it.each(['urn:oasis:names:tc:SAML:2.0:status:Requester', 'urn:oasis:names:tc:SAML:2.0:status:Responder', 'urn:oasis:names:tc:SAML:2.0:status:SuccessNot'])(
      'a signed Response with status %s and a good assertion: 401, the status check, no session',
      async (status) => {
        const request = await start(app);
        const answer = await post(
          app,
          resigned(assertionSigned(request), (xml) => xml.replace('urn:oasis:names:tc:SAML:2.0:status:Success', status)),
        );
        expect(answer.statusCode, answer.body).toBe(401);
        expect(answer.body).toContain('Wir konnten Sie nicht anmelden');
        expect(refusedCheck()).toMatchObject({ samlCheck: 'status' });
        await noAnna();
      },
    );

    it('a Response with no Status at all: the status check', async () => {
      const request = await start(app);
      const answer = await post(
        app,
        resigned(assertionSigned(request), (xml) => xml.replace(/<samlp:Status>[\s\S]*?<\/samlp:Status>/, '')),
      );
      expect(answer.statusCode).toBe(401);
      expect(refusedCheck()).toMatchObject({ samlCheck: 'status' });
    });
  });

  describe('odd characters in asserted values: a 4xx page naming the check, never a 500', () => {
    const nameId = (value: string) => (xml: string) => xml.replace(/(<saml:NameID[^>]*>)[^<]*(<\/saml:NameID>)/, `$1${value}$2`);
    it.each([
      ['a NUL in the NameID', 'email', nameId('anna&#0;.becker@example.com')],
      ['a bidi override in the NameID', 'email', nameId('&#x202E;anna.becker@example.com')],
      ['a NameID of 20,000 characters', 'email', nameId(`${'a'.repeat(20_000)}@example.com`)],
      ['a bidi override in the given name', 'attribute', (xml: string) => xml.replace('>Anna<', '>An&#x202E;na<')],
      ['a control character in the family name', 'attribute', (xml: string) => xml.replace('>Becker<', '>Beck&#7;er<')],
    ] as const)('%s: 401, the %s check, no account', async (_name, check, bend) => {
      const request = await start(app);
      const answer = await post(app, resigned(unsigned(request), bend));
      expect(answer.statusCode, answer.body).toBe(401);
      expect(answer.body).toContain('Wir konnten Sie nicht anmelden');
      expect(refusedCheck()).toMatchObject({ samlCheck: check });
      expect((await gateway.test.db.query('select 1 from users')).rows).toHaveLength(0);
    });

    it('an address in capitals with spaces around it is stored as registration stores it', async () => {
      const request = await start(app);
      const answer = await post(app, resigned(unsigned(request), nameId(' Anna.Becker@Example.com ')));
      expect(answer.statusCode, answer.body).toBe(303);
      await expect(gateway.test.db.query('select email from users')).resolves.toMatchObject({ rows: [{ email: ANNA.email }] });
    });
  });

  describe('every other refusal a browser meets at the ACS is the same German page, with the machine code on it', () => {
    const expectPage = (
      answer: { statusCode: number; body: string; headers: Record<string, unknown> },
      status: number,
      code: string,
      text = 'Wir konnten Sie nicht anmelden',
    ) => {
      expect(answer.statusCode, answer.body).toBe(status);
      expect(String(answer.headers['content-type'])).toMatch(/^text\/html/);
      expect(answer.body).toContain(`data-error="${code}"`);
      expect(answer.body).toContain(text);
      expect(answer.body).toContain('href="/api/user-auth/saml/authorize?siteId=rheinbank"');
    };

    it('a multipart body, not the form of the HTTP-POST binding: 415', async () => {
      const payload = '--b\r\nContent-Disposition: form-data; name="SAMLResponse"\r\n\r\nAAAA\r\n--b--\r\n';
      const answer = await app.inject({ method: 'POST', url: ACS, headers: { 'content-type': 'multipart/form-data; boundary=b' }, payload });
      expectPage(answer, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('past the per-IP limit of sign-in calls: 429 with Retry-After', async () => {
      let answer = await post(app, base64('<x/>'));
      for (let call = 1; call <= SIGN_IN_LIMITS.signInCallsPerIp && answer.statusCode !== 429; call += 1) answer = await post(app, base64('<x/>'));
      expectPage(answer, 429, 'RATE_LIMITED');
      expect(answer.headers['retry-after']).toMatch(/^\d+$/);
    });

    it("an agent's e-mail address: 403, the page saying the account cannot sign in through the bank", async () => {
      await insertUser(gateway.test.db, { email: ANNA.email, password: 'Agent#Password77', siteId: SITE, roles: ['ROLE_CONCIERGE'] });
      const request = await start(app);
      expectPage(await post(app, genuine(request)), 403, 'SSO_ACCOUNT_NOT_CARDHOLDER', 'Mit diesem Konto ist keine Anmeldung über Ihre Bank möglich.');
    });
  });

  describe("last_visited_path: only the site's own pages (ADR 0028, as ADR 0015)", () => {
    it.each(['/firstbank/en_us/account/profile', '/rheinbank/de_de/account/profile?siteid=firstbank', '/de_de/account/profile'])(
      '%s at rheinbank: 400 LAST_VISITED_PATH_OFF_SITE',
      async (path) => {
        const answer = await app.inject({ method: 'GET', url: `/api/user-auth/saml/authorize?siteId=${SITE}&last_visited_path=${encodeURIComponent(path)}` });
        expect(answer.statusCode).toBe(400);
        expect(answer.json()).toMatchObject({ error: 'LAST_VISITED_PATH_OFF_SITE', fields: { last_visited_path: 'invalid' } });
      },
    );

    it('a page of rheinbank is kept and landed on', async () => {
      const path = '/rheinbank/de_de/account/site-settings?siteid=rheinbank';
      const { request, binding } = await startSaml(app, SITE, { query: { last_visited_path: path } });
      const answer = await post(app, genuine(request), { cookie: binding });
      expect(answer.statusCode, answer.body).toBe(303);
      expect(answer.headers.location).toBe(path);
    });

    it("OIDC refuses another site's page the same way", async () => {
      const query = new URLSearchParams({ siteId: 'unionbank', last_visited_path: '/firstbank/en_us/account/profile' });
      const answer = await app.inject({ method: 'GET', url: `/api/user-auth/oidc/authorize?${query.toString()}` });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'LAST_VISITED_PATH_OFF_SITE' });
    });
  });
});

/** The real fixtures plus `rheinbank_down`, rheinbank with its metadata at `url` (the test provider keeps rheinbank). */
async function fixturesWithMetadataUrl(url: string): Promise<Fixtures> {
  const fixtures = await realFixtures();
  const sites = new Map(fixtures.sites);
  const site = sites.get(SITE)!;
  const config = structuredClone(site.config);
  config.siteId = 'rheinbank_down';
  const profile = config.siteFeatureConfigurations.find(({ name }) => name === 'site_auth_profile')!;
  profile.featureConfig = { ...profile.featureConfig, saml_idp_metadata_url: url, saml_sp_entity_id: 'urn:example:rheinbank-down' };
  sites.set('rheinbank_down', { ...site, config });
  return { ...fixtures, sites };
}

describeEachDatabase((leg) => {
  let metadataServer: Server;
  let fetches: number;
  let gateway: SignInGateway;
  beforeEach(async () => {
    fetches = 0;
    metadataServer = createServer((_request, response) => {
      fetches += 1;
      response.writeHead(503).end();
    });
    await new Promise<void>((resolve) => metadataServer.listen(0, '127.0.0.1', resolve));
    const { port } = metadataServer.address() as AddressInfo;
    gateway = await openSignInGateway(leg, { fixtures: await fixturesWithMetadataUrl(`http://127.0.0.1:${port}/saml/metadata`) });
  });
  afterEach(async () => {
    await gateway.dispose();
    await new Promise((resolve) => metadataServer.close(resolve));
  });

  it('metadata that cannot be fetched: 502, the German page; asked again only after a minute, not on every post', async () => {
    for (let round = 0; round < 3; round += 1) {
      const answer = await gateway.app.inject({
        method: 'POST',
        url: '/api/user-auth/saml/acs/rheinbank_down',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ SAMLResponse: base64('<samlp:Response/>') }).toString(),
      });
      expect(answer.statusCode, answer.body).toBe(502);
      expect(answer.body).toContain('data-error="SAML_IDP_METADATA_INVALID"');
      expect(answer.body).toContain('Wir konnten Sie nicht anmelden');
      expect(answer.body).toContain('href="/api/user-auth/saml/authorize?siteId=rheinbank_down"');
    }
    expect(fetches).toBe(1);
  });
});
