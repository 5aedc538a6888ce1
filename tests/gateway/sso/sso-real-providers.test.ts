import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import { clientSecretVariable, privateKeyVariable, readSsoCredentials, type SsoCredentials } from '../../../gateway/sso/client-credentials';
import { issuerTransportFor } from '../../../gateway/sso/issuer-transport';
import { finishSsoSignIn, startSsoSignIn } from '../../../gateway/sso/relying-party';
import { ssoSiteOf, TEST_IDP_ISSUER, type ClientAuthMethod } from '../../../gateway/sso/sso-sites';
import { generateSigningKey, ID_TOKEN_ALGORITHMS, TestIdpKeys } from '../../../gateway/sso/test-idp-keys';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { realFixtures, withXsrf } from '../support/test-gateway';

/**
 * ADR 0015 "SSO against real identity providers": the relying party (openid-client) accepts RS256,
 * PS256 and ES256 ID tokens, authenticates as a public client (PKCE), with client_secret_basic or
 * with private_key_jwt, refuses a token signed with a key the issuer never published (401 JSON,
 * never a 500), and follows the provider's key rotation. The gateway's test identity provider plays
 * the bank's provider: its key type and its client's authentication are chosen per test.
 */
const SITE = 'unionbank';
const CLIENT_ID = 'unionbank-rewards-portal';
const REDIRECT_URI = '/unionbank/en_us/account/redirect-sso';
const GRACE = 'ub-000417';

/** The real fixtures, unionbank's `site_auth_profile.client_auth` set to `clientAuth`. */
async function fixturesWith(clientAuth: ClientAuthMethod): Promise<Fixtures> {
  const real = await realFixtures();
  const site = real.sites.get(SITE)!;
  const config = structuredClone(site.config);
  const profile = config.siteFeatureConfigurations.find((feature) => feature.name === 'site_auth_profile')!;
  profile.featureConfig.client_auth = clientAuth;
  return { ...real, sites: new Map([...real.sites, [SITE, { ...site, config }]]) };
}

async function credentialsFor(fixtures: Fixtures, env: Record<string, string>): Promise<SsoCredentials> {
  const { credentials, problems } = await readSsoCredentials([ssoSiteOf(fixtures.sites.get(SITE)!.config)!], env);
  expect(problems).toEqual([]);
  return credentials;
}

/** The whole browser round: start, the provider's authorize and identity picker, and the finish POST. */
async function signIn(app: FastifyInstance) {
  const query = new URLSearchParams({ siteId: SITE, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI });
  const started = await app.inject({ method: 'GET', url: `/api/user-auth/oidc/authorize?${query.toString()}` });
  expect(started.statusCode, started.body).toBe(302);
  const binding = /gmap_sso_binding=([^;]+)/.exec(String(started.headers['set-cookie']))![1]!;
  const authorize = await app.inject({ method: 'GET', url: String(started.headers.location) });
  expect(authorize.statusCode, authorize.body).toBe(302);
  const interaction = new URL(String(authorize.headers.location), 'http://portal.test').searchParams.get('interaction')!;
  const chosen = await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: GRACE } });
  const back = new URL(chosen.json().redirectTo as string, 'http://portal.test');
  return app.inject({
    method: 'POST',
    url: '/api/user-auth/oidc/authorize',
    headers: withXsrf({ cookie: `gmap_sso_binding=${binding}` }),
    payload: { siteId: SITE, code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
}

const sessionOf = (response: { headers: Record<string, unknown> }) => /(?:^|,)\s*SESSION=([^;]+)/.exec(String(response.headers['set-cookie']))?.[1];

/** A code for Grace issued to the client, walked without the relying party, for calling the token endpoint directly. */
async function issueCode(app: FastifyInstance, challenge: string) {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    state: 's'.repeat(43),
    nonce: 'n'.repeat(43),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const authorize = await app.inject({ method: 'GET', url: `/test-idp/authorize?${query.toString()}` });
  expect(authorize.statusCode, authorize.body).toBe(302);
  const interaction = new URL(String(authorize.headers.location), 'http://portal.test').searchParams.get('interaction')!;
  const chosen = await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: GRACE } });
  expect(chosen.statusCode, chosen.body).toBe(200);
  return new URL(chosen.json().redirectTo as string, 'http://portal.test').searchParams.get('code')!;
}

/** RFC 7636 appendix B's verifier and challenge. */
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

function tokenCall(app: FastifyInstance, code: string, fields: Record<string, string>, authorization?: string) {
  return app.inject({
    method: 'POST',
    url: '/test-idp/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
    payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER, ...fields }).toString(),
  });
}

const pem = (type: 'rsa' | 'ec') =>
  (type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'prime256v1' })).privateKey
    .export({ format: 'pem', type: 'pkcs8' })
    .toString();

describe('client credentials from the environment (never from the fixture)', () => {
  it('names the missing variable of each confidential site, and never echoes a value', async () => {
    const basic = ssoSiteOf((await fixturesWith('client_secret_basic')).sites.get(SITE)!.config)!;
    const jwt = { ...ssoSiteOf((await fixturesWith('private_key_jwt')).sites.get(SITE)!.config)!, siteId: 'other-bank' };
    expect(clientSecretVariable('unionbank')).toBe('SSO_CLIENT_SECRET_UNIONBANK');
    expect(privateKeyVariable('other-bank')).toBe('SSO_PRIVATE_KEY_OTHER_BANK');
    const missing = await readSsoCredentials([basic, jwt], {});
    expect(missing.problems).toEqual([
      expect.stringContaining('SSO_CLIENT_SECRET_UNIONBANK is not set'),
      expect.stringContaining('SSO_PRIVATE_KEY_OTHER_BANK is not set'),
    ]);
    const wrongKey = await readSsoCredentials([jwt], { SSO_PRIVATE_KEY_OTHER_BANK: 'not-a-key-but-a-secret-value' });
    expect(wrongKey.problems).toEqual([expect.stringMatching(/^SSO_PRIVATE_KEY_OTHER_BANK must be/)]);
    expect(wrongKey.problems.join('\n')).not.toContain('not-a-key-but-a-secret-value');
    const publicClient = ssoSiteOf((await realFixtures()).sites.get(SITE)!.config)!;
    expect(publicClient.clientAuth).toBe('none');
    expect((await readSsoCredentials([publicClient], {})).problems).toEqual([]);
  });
});

describeEachDatabase((leg) => {
  let gateway: SignInGateway | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await gateway?.dispose();
    gateway = undefined;
  });

  it.each(ID_TOKEN_ALGORITHMS)('signs in with an ID token signed %s, the one key type the provider publishes', async (alg) => {
    const keys = new TestIdpKeys(await generateSigningKey(alg));
    gateway = await openSignInGateway(leg, { testIdpKeys: keys });
    const jwks = (await gateway.app.inject({ method: 'GET', url: '/test-idp/jwks' })).json();
    expect(jwks.keys).toEqual([expect.objectContaining({ alg, kty: alg === 'ES256' ? 'EC' : 'RSA' })]);
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const signedIn = await signIn(gateway.app);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(sessionOf(signedIn)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('a confidential client with client_secret_basic signs in; the provider refuses a wrong or absent secret (401 invalid_client)', async () => {
    const fixtures = await fixturesWith('client_secret_basic');
    gateway = await openSignInGateway(leg, {
      fixtures,
      ssoCredentials: await credentialsFor(fixtures, { SSO_CLIENT_SECRET_UNIONBANK: 'a secret: with + and / signs' }),
    });
    const signedIn = await signIn(gateway.app);
    expect(signedIn.statusCode, signedIn.body).toBe(200);

    const basic = (secret: string) => `Basic ${Buffer.from(`${CLIENT_ID}:${encodeURIComponent(secret)}`).toString('base64')}`;
    const wrong = await tokenCall(gateway.app, await issueCode(gateway.app, CHALLENGE), {}, basic('another secret'));
    expect(wrong.statusCode, wrong.body).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'invalid_client', message: expect.stringContaining('secret is wrong') });
    const absent = await tokenCall(gateway.app, await issueCode(gateway.app, CHALLENGE), { client_id: CLIENT_ID });
    expect(absent.json()).toMatchObject({ error: 'invalid_client', message: expect.stringContaining('client_secret_basic') });
    // The relying party sends the secret as RFC 6749 §2.3.1 asks (form-encoded), which the provider accepts.
    const right = await tokenCall(
      gateway.app,
      await issueCode(gateway.app, CHALLENGE),
      {},
      `Basic ${Buffer.from(`${CLIENT_ID}:a+secret%3A+with+%2B+and+%2F+signs`).toString('base64')}`,
    );
    expect(right.statusCode, right.body).toBe(200);
  });

  it.each([
    ['an RSA PKCS#8 PEM', () => pem('rsa')],
    [
      'an EC P-256 private JWK with its kid',
      () => JSON.stringify({ ...(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' }) as object), kid: 'portal-2026' }),
    ],
  ])('a confidential client with private_key_jwt (%s) signs in; an assertion signed with another key is refused', async (_name, key) => {
    const fixtures = await fixturesWith('private_key_jwt');
    gateway = await openSignInGateway(leg, { fixtures, ssoCredentials: await credentialsFor(fixtures, { SSO_PRIVATE_KEY_UNIONBANK: key() }) });
    const signedIn = await signIn(gateway.app);
    expect(signedIn.statusCode, signedIn.body).toBe(200);

    const now = Math.floor(gateway.clock.now().getTime() / 1000);
    const forged = await new SignJWT({ jti: randomBytes(16).toString('hex') })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(CLIENT_ID)
      .setSubject(CLIENT_ID)
      .setAudience('http://127.0.0.1/test-idp')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    const refused = await tokenCall(gateway.app, await issueCode(gateway.app, CHALLENGE), {
      client_id: CLIENT_ID,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: forged,
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: 'invalid_client', message: expect.stringContaining('client assertion') });
  });

  it("the relying party reports a provider that refuses the client's credentials as 502 SSO_CLIENT_REJECTED, signing no one in", async () => {
    const fixtures = await fixturesWith('client_secret_basic');
    gateway = await openSignInGateway(leg, {
      fixtures,
      ssoCredentials: await credentialsFor(fixtures, { SSO_CLIENT_SECRET_UNIONBANK: 'the secret the provider issued' }),
    });
    const sso = ssoSiteOf(fixtures.sites.get(SITE)!.config)!;
    // The relying party with a stale secret, against the provider that knows the current one.
    const context = {
      transport: issuerTransportFor(TEST_IDP_ISSUER, gateway.app),
      development: true,
      credentials: await credentialsFor(fixtures, { SSO_CLIENT_SECRET_UNIONBANK: 'last year secret' }),
    };
    const binding = randomBytes(32).toString('base64url');
    const authorizeUrl = await startSsoSignIn(gateway.test.db, sso, { redirect_uri: REDIRECT_URI }, binding, context, gateway.clock.now());
    const authorize = await gateway.app.inject({ method: 'GET', url: authorizeUrl });
    const interaction = new URL(String(authorize.headers.location), 'http://portal.test').searchParams.get('interaction')!;
    const chosen = await gateway.app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: GRACE } });
    const back = new URL(chosen.json().redirectTo as string, 'http://portal.test');
    const refused = finishSsoSignIn(
      gateway.test.db,
      sso,
      { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! },
      binding,
      context,
      gateway.clock.now(),
    );
    await expect(refused).rejects.toMatchObject({ statusCode: 502, code: 'SSO_CLIENT_REJECTED', message: expect.not.stringContaining('last year secret') });
    expect((await gateway.test.db.query('select id from users')).rows).toEqual([]);
  });

  it('a confidential site whose credential the gateway was not given answers 503 SSO_CLIENT_NOT_CONFIGURED as JSON, never a 500', async () => {
    gateway = await openSignInGateway(leg, { fixtures: await fixturesWith('private_key_jwt') });
    const query = new URLSearchParams({ siteId: SITE, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI });
    const refused = await gateway.app.inject({ method: 'GET', url: `/api/user-auth/oidc/authorize?${query.toString()}` });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.json()).toMatchObject({ error: 'SSO_CLIENT_NOT_CONFIGURED', message: expect.stringContaining('private_key_jwt') });
  });

  it('outside development an http issuer is never called: 502 SSO_ISSUER_UNAVAILABLE before anything is stored (ADR 0018)', async () => {
    gateway = await openSignInGateway(leg);
    const sso = ssoSiteOf((await realFixtures()).sites.get(SITE)!.config)!;
    const production = { transport: issuerTransportFor(TEST_IDP_ISSUER, gateway.app), development: false, credentials: new Map() };
    const started = startSsoSignIn(
      gateway.test.db,
      sso,
      { redirect_uri: REDIRECT_URI },
      randomBytes(32).toString('base64url'),
      production,
      gateway.clock.now(),
    );
    await expect(started).rejects.toMatchObject({ statusCode: 502, code: 'SSO_ISSUER_UNAVAILABLE' });
    expect((await gateway.test.db.query('select state_hash from sso_login_requests')).rows).toEqual([]);
  });

  it('refuses an ID token signed with a key the issuer never published: 401 SSO_ID_TOKEN_INVALID as JSON, no session, never a 500', async () => {
    const published = await generateSigningKey('RS256');
    const keys = new TestIdpKeys(await generateSigningKey('RS256'));
    vi.spyOn(keys, 'jwks').mockReturnValue({ keys: [published.publicJwk] });
    gateway = await openSignInGateway(leg, { testIdpKeys: keys });
    const refused = await signIn(gateway.app);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: 'SSO_ID_TOKEN_INVALID', message: expect.stringContaining('signature'), fields: { id_token: 'invalid' } });
    expect(sessionOf(refused)).toBeUndefined();
    expect((await gateway.test.db.query('select id from users')).rows).toEqual([]);
  });

  it('caches the JWKS, and fetches it once more when the provider rotates to a key the cache lacks', async () => {
    const keys = new TestIdpKeys(await generateSigningKey('PS256'));
    const served = vi.spyOn(keys, 'jwks');
    gateway = await openSignInGateway(leg, { testIdpKeys: keys });
    expect((await signIn(gateway.app)).statusCode).toBe(200);
    expect((await signIn(gateway.app)).statusCode).toBe(200);
    expect(served).toHaveBeenCalledTimes(1);

    const before = keys.signing.kid;
    keys.rotate(await generateSigningKey('RS256'));
    expect(keys.signing.kid).not.toBe(before);
    const afterRotation = await signIn(gateway.app);
    expect(afterRotation.statusCode, afterRotation.body).toBe(200);
    expect(served).toHaveBeenCalledTimes(2);
    // The new set is cached in turn.
    expect((await signIn(gateway.app)).statusCode).toBe(200);
    expect(served).toHaveBeenCalledTimes(2);
  });
});
