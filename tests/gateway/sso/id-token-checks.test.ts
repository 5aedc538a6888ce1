import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { deriveSigningKey, signEs256Jwt, type SigningKey } from '../../../gateway/sso/es256-jwt';
import { issuerTransportFor } from '../../../gateway/sso/issuer-transport';
import { finishSsoSignIn, startSsoSignIn, type IssuerTransport } from '../../../gateway/sso/relying-party';
import { ssoSiteOf, TEST_IDP_ISSUER, type SsoSite } from '../../../gateway/sso/sso-sites';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { realFixtures } from '../support/test-gateway';

/**
 * ADR 0015: the relying party's checks of the ID token (signature, iss, aud, exp, nonce). A test
 * double sits between it and the real in-process provider and rewrites the token the provider issued.
 */
type Rewrite = (claims: Record<string, unknown>) => Record<string, unknown>;

function tamperingTransport(real: IssuerTransport, key: SigningKey, rewrite: Rewrite): IssuerTransport {
  return {
    getJson: (url) => real.getJson(url),
    postForm: async (url, fields) => {
      const answer = await real.postForm(url, fields);
      const body = answer.body as { id_token: string };
      const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
      return { status: answer.status, body: { ...body, id_token: signEs256Jwt(rewrite(claims), key) } };
    },
  };
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
    const binding = randomBytes(32).toString('base64url');
    const authorizeUrl = await startSsoSignIn(gateway.test.db, sso, { redirect_uri: '/unionbank/en_us/account/redirect-sso' }, binding, real, gateway.clock.now());
    const picker = await app.inject({ method: 'GET', url: authorizeUrl });
    const interaction = new URL(String(picker.headers.location), 'http://portal.test').searchParams.get('interaction')!;
    const chosen = await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: 'ub-000417' } });
    const back = new URL(chosen.json().redirectTo as string, 'http://portal.test');
    return finishSsoSignIn(gateway.test.db, sso, { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! }, binding, transport(real), gateway.clock.now());
  }

  const providerKey = () => deriveSigningKey(gateway.tokenSigningKey);

  it('accepts the token the provider issued, untouched', async () => {
    await expect(signInThrough((real) => real)).resolves.toMatchObject({ email: 'grace.villanueva@example.com', givenName: 'Grace' });
  });

  it.each<[string, () => SigningKey, Rewrite, string, RegExp]>([
    ['signed with another key', () => deriveSigningKey(randomBytes(32)), (claims) => claims, 'SSO_ID_TOKEN_INVALID', /signature/],
    ['another audience', providerKey, (claims) => ({ ...claims, aud: 'someone-else' }), 'SSO_ID_TOKEN_INVALID', /aud/],
    ['another issuer', providerKey, (claims) => ({ ...claims, iss: 'https://idp.evil.example' }), 'SSO_ID_TOKEN_INVALID', /iss/],
    ['expired', providerKey, (claims) => ({ ...claims, exp: Number(claims.iat) - 3600 }), 'SSO_ID_TOKEN_INVALID', /exp/],
    ['a nonce of another sign-in', providerKey, (claims) => ({ ...claims, nonce: 'n'.repeat(43) }), 'SSO_NONCE_MISMATCH', /nonce/],
    ['no nonce', providerKey, ({ nonce: _dropped, ...claims }) => claims, 'SSO_NONCE_MISMATCH', /nonce/],
    ['an unverified e-mail', providerKey, (claims) => ({ ...claims, email_verified: false }), 'SSO_ID_TOKEN_INVALID', /verified e-mail/],
  ])('refuses an ID token %s (401 %s)', async (_name, key, rewrite, code, message) => {
    const refused = signInThrough((real) => tamperingTransport(real, key(), rewrite));
    await expect(refused).rejects.toMatchObject({ statusCode: 401, code, message: expect.stringMatching(message) });
  });

  it('refuses a token whose header claims alg none, whatever its claims', async () => {
    const unsigned: IssuerTransport = {
      getJson: (url) => issuerTransportFor(TEST_IDP_ISSUER, app).getJson(url),
      postForm: async () => {
        const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
        return { status: 200, body: { id_token: `${part({ alg: 'none' })}.${part({ iss: TEST_IDP_ISSUER, aud: sso.clientId, email: 'x@example.com' })}.` } };
      },
    };
    await expect(signInThrough(() => unsigned)).rejects.toMatchObject({ code: 'SSO_ID_TOKEN_INVALID' });
  });
});
