import { createPublicKey, generateKeyPairSync, verify, X509Certificate } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import { readSamlKeys } from '../../../gateway/sso/saml-keys';
import { samlSiteOf, type SamlSite } from '../../../gateway/sso/saml-sites';
import type { SamlKeys } from '../../../gateway/sso/service-provider';
import { generateTestSamlIdpKey, issueResponse, readAuthnRequest, testSamlIdpMetadata, type TestSamlIdpKey } from '../../../gateway/sso/test-saml-idp';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase } from '../support/database-legs';
import { cookieHeaderOf, postSaml, SAML_BINDING_COOKIE, startSaml } from '../support/saml-browser';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { realFixtures, withXsrf } from '../support/test-gateway';

/**
 * A SAML site's own key pair (docs/decisions/0028-sso-saml.md "Keys"): read from SAML_SP_PRIVATE_KEY_<SITE> and
 * SAML_SP_CERTIFICATE_<SITE>; with it the test identity provider's assertions can come encrypted to the site's
 * certificate, and requests to a provider whose metadata sets WantAuthnRequestsSigned carry a valid signature.
 */
const SITE = 'rheinbank';
const ANNA = { email: 'anna.becker@example.com', givenName: 'Anna', familyName: 'Becker' };

let idpKey: TestSamlIdpKey;
let siteKey: TestSamlIdpKey;
beforeAll(() => {
  idpKey = generateTestSamlIdpKey(new Date());
  siteKey = generateTestSamlIdpKey(new Date());
});

/**
 * A second SAML site beside rheinbank, `rheinbank-signed`, with the test provider's metadata inline asking for signed
 * AuthnRequests (the people list stays rheinbank's: this site is read by the test, not served by the provider).
 */
const SIGNED_SITE = 'rheinbank-signed';
async function signedRequestFixtures(): Promise<Fixtures> {
  const fixtures = await realFixtures();
  const sites = new Map(fixtures.sites);
  const site = sites.get(SITE)!;
  const config = structuredClone(site.config);
  config.siteId = SIGNED_SITE;
  const profile = config.siteFeatureConfigurations.find(({ name }) => name === 'site_auth_profile')!;
  const { saml_idp_metadata_url: _url, ...rest } = profile.featureConfig;
  profile.featureConfig = {
    ...rest,
    saml_sp_entity_id: 'urn:example:rheinbank:signed',
    saml_acs_url: `http://127.0.0.1:8080/api/user-auth/saml/acs/${SIGNED_SITE}`,
    saml_idp_metadata: testSamlIdpMetadata(idpKey, { wantAuthnRequestsSigned: true }),
  };
  sites.set(SIGNED_SITE, { ...site, config });
  return { ...fixtures, sites };
}

/** The HTTP-Redirect query signature (SAML bindings §3.4.4.1) over the query as sent, with the site's certificate. */
function redirectSignatureVerifies(location: string, certificate: string): boolean {
  const query = location.slice(location.indexOf('?') + 1);
  const fields = new Map(query.split('&').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const));
  if (fields.get('SigAlg') !== encodeURIComponent('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')) return false;
  const signed = ['SAMLRequest', 'RelayState', 'SigAlg'].flatMap((name) => (fields.has(name) ? [`${name}=${fields.get(name)}`] : [])).join('&');
  return verify(
    'sha256',
    Buffer.from(signed),
    new X509Certificate(certificate).publicKey,
    Buffer.from(decodeURIComponent(fields.get('Signature') ?? ''), 'base64'),
  );
}

describe('readSamlKeys: SAML_SP_PRIVATE_KEY_<SITE> and SAML_SP_CERTIFICATE_<SITE>', () => {
  const site = { siteId: 'rheinbank' } as SamlSite;
  it('reads a matching pair; a site with neither has none', () => {
    const env = { SAML_SP_PRIVATE_KEY_RHEINBANK: siteKey.privateKey, SAML_SP_CERTIFICATE_RHEINBANK: siteKey.certificate };
    const { keys, problems } = readSamlKeys([site], env);
    expect(problems).toEqual([]);
    expect(createPublicKey(keys.get(SITE)!.privateKey).equals(new X509Certificate(siteKey.certificate).publicKey)).toBe(true);
    expect(readSamlKeys([site], {})).toEqual({ keys: new Map(), problems: [] });
  });

  it('names the variable, never its value, when one is missing, unreadable, of another key, or not RSA', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const cases: [Record<string, string>, string][] = [
      [{ SAML_SP_PRIVATE_KEY_RHEINBANK: siteKey.privateKey }, 'site rheinbank: set both SAML_SP_PRIVATE_KEY_RHEINBANK and SAML_SP_CERTIFICATE_RHEINBANK'],
      [
        { SAML_SP_PRIVATE_KEY_RHEINBANK: 'nonsense', SAML_SP_CERTIFICATE_RHEINBANK: siteKey.certificate },
        'SAML_SP_PRIVATE_KEY_RHEINBANK must be an RSA private key in PEM',
      ],
      [{ SAML_SP_PRIVATE_KEY_RHEINBANK: ec, SAML_SP_CERTIFICATE_RHEINBANK: siteKey.certificate }, 'SAML_SP_PRIVATE_KEY_RHEINBANK must be an RSA key'],
      [
        { SAML_SP_PRIVATE_KEY_RHEINBANK: idpKey.privateKey, SAML_SP_CERTIFICATE_RHEINBANK: siteKey.certificate },
        'SAML_SP_CERTIFICATE_RHEINBANK is not the certificate of the key in SAML_SP_PRIVATE_KEY_RHEINBANK',
      ],
    ];
    for (const [env, problem] of cases) {
      const { keys, problems } = readSamlKeys([site], env);
      expect(keys.size).toBe(0);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(problem);
      expect(problems[0]).not.toContain('BEGIN');
    }
  });
});

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let app: FastifyInstance;
  let lines: string[];
  afterEach(() => gateway.dispose());

  async function open(samlKeys: SamlKeys, fixtures?: Fixtures) {
    const captured = capturingLogger();
    lines = captured.lines;
    gateway = await openSignInGateway(leg, { testSamlIdpKey: idpKey, samlKeys, logger: captured.logger, ...(fixtures ? { fixtures } : {}) });
    app = gateway.app;
  }

  async function start() {
    const started = await startSaml(app, SITE);
    return { started: started.answer, request: started.request, cookie: started.binding };
  }

  const post = (samlResponse: string, cookie: string) => postSaml(app, SITE, samlResponse, { cookie });
  const refusedCheck = () => (JSON.parse(lines.find((line) => line.includes('SAML response refused'))!) as { samlCheck: string }).samlCheck;

  describe('encrypted assertions', () => {
    it.each(['response', 'assertion', 'both'] as const)(
      'an assertion encrypted to the site certificate (signed on the %s) signs the holder in',
      async (signed) => {
        await open(new Map([[SITE, siteKey]]));
        const { request, cookie } = await start();
        const samlResponse = issueResponse(idpKey, { request, person: ANNA, now: gateway.clock.now(), signed, encryptTo: siteKey.certificate });
        expect(Buffer.from(samlResponse, 'base64').toString()).toContain('<saml:EncryptedAssertion>');
        expect(Buffer.from(samlResponse, 'base64').toString()).not.toContain(ANNA.email);
        const answer = await post(samlResponse, cookie);
        expect(answer.statusCode, answer.body).toBe(303);
        expect((await gateway.test.db.query('select 1 from users where email = $1', [ANNA.email])).rows).toHaveLength(1);
      },
    );

    it('a gateway without the site key pair, or one encrypted to another key: the encryption check', async () => {
      for (const [keys, encryptTo] of [
        [new Map(), siteKey.certificate],
        [new Map([[SITE, siteKey]]), idpKey.certificate],
      ] as const) {
        await open(keys);
        const { request, cookie } = await start();
        const answer = await post(issueResponse(idpKey, { request, person: ANNA, now: gateway.clock.now(), encryptTo }), cookie);
        expect(answer.statusCode).toBe(401);
        expect(refusedCheck()).toBe('encryption');
        await gateway.dispose();
      }
      await open(new Map());
    });

    it.each([
      ['RSA PKCS#1 v1.5 key transport', { keyTransport: 'rsa-1_5' }],
      ['triple DES content encryption', { contentEncryption: 'tripledes-cbc' }],
    ] as const)('%s is refused before anything is decrypted: the encryption check', async (_name, weak) => {
      await open(new Map([[SITE, siteKey]]));
      const { request, cookie } = await start();
      const samlResponse = issueResponse(idpKey, { request, person: ANNA, now: gateway.clock.now(), encryptTo: siteKey.certificate, ...weak });
      const answer = await post(samlResponse, cookie);
      expect(answer.statusCode).toBe(401);
      expect(refusedCheck()).toBe('encryption');
    });

    it("the site's SP metadata publishes its certificate for signing and encryption", async () => {
      await open(new Map([[SITE, siteKey]]));
      const metadata = (await app.inject({ method: 'GET', url: `/api/user-auth/saml/metadata/${SITE}` })).body;
      const body = siteKey.certificate.replace(/-----[A-Z ]+-----|\s/g, '');
      expect(metadata).toContain('<KeyDescriptor use="signing">');
      expect(metadata).toContain('<KeyDescriptor use="encryption">');
      expect(metadata.replace(/\s/g, '')).toContain(body);
    });
  });

  describe('signed requests', () => {
    it('a provider whose metadata sets WantAuthnRequestsSigned gets an AuthnRequest whose redirect carries a valid RSA-SHA256 signature', async () => {
      const fixtures = await signedRequestFixtures();
      await open(new Map([[SIGNED_SITE, siteKey]]), fixtures);
      const started = await app.inject({ method: 'GET', url: `/api/user-auth/saml/authorize?siteId=${SIGNED_SITE}` });
      expect(started.statusCode, started.body).toBe(302);
      const location = String(started.headers.location);
      expect(location).toMatch(/[?&]Signature=/);
      expect(redirectSignatureVerifies(location, siteKey.certificate)).toBe(true);
      expect(redirectSignatureVerifies(location, idpKey.certificate)).toBe(false);
      // Signed, and still the request a provider reads and answers.
      const signedSite = samlSiteOf(fixtures.sites.get(SIGNED_SITE)!.config)!;
      const request = await readAuthnRequest(
        new URL(location, 'http://portal.test').searchParams.get('SAMLRequest')!,
        new Map([[signedSite.spEntityId, signedSite]]),
      );
      const answer = await postSaml(app, SIGNED_SITE, issueResponse(idpKey, { request, person: ANNA, now: gateway.clock.now() }), {
        cookie: cookieHeaderOf(started, SAML_BINDING_COOKIE),
      });
      expect(answer.statusCode, answer.body).toBe(303);
    });

    it('without the site key pair that provider cannot be asked: 503 SAML_SP_KEY_MISSING, never an unsigned request', async () => {
      await open(new Map(), await signedRequestFixtures());
      const started = await app.inject({ method: 'GET', url: `/api/user-auth/saml/authorize?siteId=${SIGNED_SITE}` });
      expect(started.statusCode).toBe(503);
      expect(started.json()).toMatchObject({ error: 'SAML_SP_KEY_MISSING' });
    });

    it("the single logout's LogoutRequest is signed with the site key when it has one", async () => {
      await open(new Map([[SITE, siteKey]]));
      const { request, cookie } = await start();
      const posted = await post(issueResponse(idpKey, { request, person: ANNA, now: gateway.clock.now() }), cookie);
      const session = [posted.headers['set-cookie'] ?? []]
        .flat()
        .find((line) => line.startsWith('SESSION='))!
        .split(';')[0]!;
      const logout = await app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: withXsrf({ 'content-type': 'text/plain', cookie: session }),
        payload: 'null',
      });
      const endSessionUrl = logout.json<{ endSessionUrl: string }>().endSessionUrl;
      expect(endSessionUrl).toMatch(/^\/test-saml-idp\/slo\?SAMLRequest=/);
      expect(redirectSignatureVerifies(endSessionUrl, siteKey.certificate)).toBe(true);
    });
  });
});
