import { createSecretKey, randomBytes } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { issuerTransportFor, type IssuerTransport } from '../../../gateway/sso/issuer-transport';
import { finishSsoSignIn, startSsoSignIn, type RelyingPartyContext } from '../../../gateway/sso/relying-party';
import { ssoSiteOf, TEST_IDP_ISSUER, type SsoSite } from '../../../gateway/sso/sso-sites';
import { deriveSigningKey, signJwt, type TestIdpSigningKey } from '../../../gateway/sso/test-idp-keys';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { realFixtures } from '../support/test-gateway';

/**
 * ADR 0015: the relying party's (openid-client's) checks of the ID token (signature, iss, aud, exp,
 * nonce). A test double sits between it and the real in-process provider and replaces the token
 * endpoint's answer.
 */
type Rewrite = (claims: Record<string, unknown>) => Record<string, unknown>;

/** The real transport, except that the token endpoint's answer goes through `replace`. */
function replacingToken(real: IssuerTransport, replace: (body: Record<string, unknown>) => Promise<Record<string, unknown>>): IssuerTransport {
  return {
    ...real,
    fetch: async (url, init) => {
      const answer = await real.fetch(url, init);
      if (!url.endsWith('/test-idp/token') || answer.status !== 200) return answer;
      const body = (await answer.json()) as Record<string, unknown>;
      return new Response(JSON.stringify(await replace(body)), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  };
}

function tamperingTransport(real: IssuerTransport, key: Pick<TestIdpSigningKey, 'alg' | 'kid' | 'privateKey'>, rewrite: Rewrite): IssuerTransport {
  return replacingToken(real, async (body) => {
    const claims = JSON.parse(Buffer.from(String(body.id_token).split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    return { ...body, id_token: await signJwt(rewrite(claims), key) };
  });
}

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let app: FastifyInstance;
  let sso: SsoSite;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    app = gateway.app;
    sso = ssoSiteOf((await realFixtures()).sites.get('unionbank')!.config)!;
  });
  afterEach(() => gateway.dispose());

  /** Starts a sign-in, picks Grace at the provider, and finishes through `transport`. */
  async function signInThrough(transport: (real: IssuerTransport) => IssuerTransport) {
    const real = issuerTransportFor(TEST_IDP_ISSUER, app);
    const context = (through: IssuerTransport): RelyingPartyContext => ({ transport: through, development: true, credentials: new Map() });
    const binding = randomBytes(32).toString('base64url');
    const authorizeUrl = await startSsoSignIn(
      gateway.test.db,
      sso,
      { redirect_uri: '/unionbank/en_us/account/redirect-sso' },
      binding,
      context(real),
      gateway.clock.now(),
    );
    const picker = await app.inject({ method: 'GET', url: authorizeUrl });
    const interaction = new URL(String(picker.headers.location), 'http://portal.test').searchParams.get('interaction')!;
    const chosen = await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: 'ub-000417' } });
    const back = new URL(chosen.json().redirectTo as string, 'http://portal.test');
    return finishSsoSignIn(
      gateway.test.db,
      sso,
      { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! },
      binding,
      context(transport(real)),
      gateway.clock.now(),
    );
  }

  const providerKey = () => deriveSigningKey(gateway.tokenSigningKey);

  it('accepts the token the provider issued, untouched', async () => {
    await expect(signInThrough((real) => real)).resolves.toMatchObject({ email: 'grace.villanueva@example.com', givenName: 'Grace' });
  });

  it.each<[string, () => TestIdpSigningKey, Rewrite, string, RegExp]>([
    ['signed with another key', () => deriveSigningKey(randomBytes(32)), (claims) => claims, 'SSO_ID_TOKEN_INVALID', /signature/],
    [
      'signed with another key under the published kid',
      () => ({ ...deriveSigningKey(randomBytes(32)), kid: providerKey().kid }),
      (claims) => claims,
      'SSO_ID_TOKEN_INVALID',
      /signature/,
    ],
    ['another audience', providerKey, (claims) => ({ ...claims, aud: 'someone-else' }), 'SSO_ID_TOKEN_INVALID', /aud/],
    ['another issuer', providerKey, (claims) => ({ ...claims, iss: 'https://idp.evil.example' }), 'SSO_ID_TOKEN_INVALID', /iss/],
    ['expired', providerKey, (claims) => ({ ...claims, exp: Number(claims.iat) - 3600 }), 'SSO_ID_TOKEN_INVALID', /exp/],
    ['a nonce of another sign-in', providerKey, (claims) => ({ ...claims, nonce: 'n'.repeat(43) }), 'SSO_NONCE_MISMATCH', /nonce/],
    ['no nonce', providerKey, ({ nonce: _dropped, ...claims }) => claims, 'SSO_NONCE_MISMATCH', /nonce/],
    ['an unverified e-mail', providerKey, (claims) => ({ ...claims, email_verified: false }), 'SSO_ID_TOKEN_INVALID', /verified e-mail/],
    // ADR 0015: asserted values follow registration's rules; a NUL reached the database before (500).
    ['an e-mail holding NUL', providerKey, (claims) => ({ ...claims, email: 'grace\u0000@example.com' }), 'SSO_ID_TOKEN_INVALID', /email/],
    ['an e-mail with a bidi override', providerKey, (claims) => ({ ...claims, email: '\u202Egrace@example.com' }), 'SSO_ID_TOKEN_INVALID', /email/],
    ['an e-mail of 20,000 characters', providerKey, (claims) => ({ ...claims, email: `${'g'.repeat(20_000)}@example.com` }), 'SSO_ID_TOKEN_INVALID', /email/],
    ['a name holding a control character', providerKey, (claims) => ({ ...claims, given_name: 'Gr\u0007ace' }), 'SSO_ID_TOKEN_INVALID', /given_name/],
  ])('refuses an ID token %s (401 %s)', async (_name, key, rewrite, code, message) => {
    const refused = signInThrough((real) => tamperingTransport(real, key(), rewrite));
    await expect(refused).rejects.toMatchObject({ statusCode: 401, code, message: expect.stringMatching(message) });
  });

  it('refuses a token signed HS256 with any shared secret (HMAC never passes)', async () => {
    const hmac = (real: IssuerTransport) =>
      replacingToken(real, async (body) => {
        const claims = JSON.parse(Buffer.from(String(body.id_token).split('.')[1]!, 'base64url').toString('utf8')) as JWTPayload;
        return {
          ...body,
          id_token: await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: providerKey().kid }).sign(createSecretKey(randomBytes(32))),
        };
      });
    await expect(signInThrough(hmac)).rejects.toMatchObject({ statusCode: 401, code: 'SSO_ID_TOKEN_INVALID', message: expect.stringMatching(/alg/) });
  });

  it('refuses a token whose header claims alg none, whatever its claims', async () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = (real: IssuerTransport) =>
      replacingToken(real, async (body) => ({
        ...body,
        id_token: `${part({ alg: 'none' })}.${part({ iss: TEST_IDP_ISSUER, aud: sso.clientId, email: 'x@example.com' })}.`,
      }));
    await expect(signInThrough(unsigned)).rejects.toMatchObject({ code: 'SSO_ID_TOKEN_INVALID' });
  });
});
