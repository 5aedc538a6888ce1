import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sessionIdOf } from '../../../gateway/auth/session-store';
import { endSessionUrlOf } from '../../../gateway/sso/sso-logout';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { withXsrf } from '../support/test-gateway';

/**
 * SPEC §7 "OIDC variant POST {app base}/logout" (docs/decisions/0022-declared-calls.md, ADR 0015):
 * signing out of an SSO site ends the local session and answers the identity provider's end-session
 * URL (RP-Initiated Logout), which the test identity provider publishes and follows back to the site.
 */
const SITE = 'unionbank';
const CLIENT_ID = 'unionbank-rewards-portal';
const REDIRECT_URI = '/unionbank/en_us/account/redirect-sso';

function cookiesOf(setCookie: string | string[] | undefined): Map<string, string> {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
  return new Map(lines.map((line) => [line.slice(0, line.indexOf('=')), line.split(';')[0]!.slice(line.indexOf('=') + 1)]));
}

/** The whole SSO sign-in against the test provider (as tests/gateway/sso/sso-flow.test.ts walks it): the SESSION token. */
async function signInWithSso(app: FastifyInstance): Promise<string> {
  const query = new URLSearchParams({ siteId: SITE, client_id: CLIENT_ID, response_type: 'code', scope: 'openid email profile', redirect_uri: REDIRECT_URI });
  const started = await app.inject({ method: 'GET', url: `/api/user-auth/oidc/authorize?${query.toString()}` });
  const binding = cookiesOf(started.headers['set-cookie']).get('gmap_sso_binding')!;
  const authorizeUrl = new URL(String(started.headers.location), 'http://portal.test');
  const authorize = await app.inject({ method: 'GET', url: `${authorizeUrl.pathname}${authorizeUrl.search}` });
  const interaction = new URL(String(authorize.headers.location), 'http://portal.test').searchParams.get('interaction')!;
  const chosen = await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: 'ub-000417' } });
  const back = new URL(chosen.json().redirectTo as string, 'http://portal.test');
  const finished = await app.inject({
    method: 'POST',
    url: '/api/user-auth/oidc/authorize',
    headers: withXsrf({ cookie: `gmap_sso_binding=${binding}` }),
    payload: { siteId: SITE, code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(finished.statusCode, finished.body).toBe(200);
  return cookiesOf(finished.headers['set-cookie']).get('SESSION')!;
}

const logout = (app: FastifyInstance, headers: Record<string, string>, query = '') =>
  app.inject({ method: 'POST', url: `/api/logout${query}`, headers: withXsrf({ 'content-type': 'text/plain', ...headers }), payload: 'null' });

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let app: FastifyInstance;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    app = gateway.app;
  });
  afterEach(() => gateway.dispose());

  it('the test provider publishes an end_session_endpoint', async () => {
    const discovery = (await app.inject({ method: 'GET', url: '/test-idp/.well-known/openid-configuration' })).json();
    expect(discovery.end_session_endpoint).toBe('/test-idp/logout');
  });

  it('SSO site: the session ends, the cookies are expired, and the answer sends the browser to the provider, which sends it back to the site', async () => {
    const session = await signInWithSso(app);
    const response = await logout(app, { cookie: `SESSION=${session}` });
    expect(response.statusCode, response.body).toBe(200);
    const { revoked, endSessionUrl } = response.json();
    expect(revoked).toBe(true);
    const url = new URL(endSessionUrl, 'http://portal.test');
    expect(url.pathname).toBe('/test-idp/logout');
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: CLIENT_ID, post_logout_redirect_uri: REDIRECT_URI });
    expect(cookiesOf(response.headers['set-cookie']).get('SESSION')).toBe('');
    const stored = await gateway.test.db.query<{ revoked: boolean }>('select revoked_at is not null as revoked from sessions where id = $1', [
      sessionIdOf(session),
    ]);
    expect(stored.rows).toEqual([{ revoked: true }]);
    expect(
      (await app.inject({ method: 'GET', url: `/api/user-attribute/user/background/${SITE}`, headers: { cookie: `SESSION=${session}` } })).statusCode,
    ).toBe(401);

    const provider = await app.inject({ method: 'GET', url: `${url.pathname}${url.search}&state=after-logout-0001` });
    expect(provider.statusCode).toBe(302);
    expect(provider.headers.location).toBe(`${REDIRECT_URI}?state=after-logout-0001`);
  });

  it('a registered post_logout_redirect_uri of the site may be chosen; any other is 400 naming it, and the session lives on', async () => {
    const session = await signInWithSso(app);
    const chosen = 'http://127.0.0.1:8080/unionbank/en_us/account/redirect-sso';
    const refused = await logout(app, { cookie: `SESSION=${session}` }, `?post_logout_redirect_uri=${encodeURIComponent('https://evil.example/')}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'REDIRECT_URI_NOT_REGISTERED', fields: { post_logout_redirect_uri: 'invalid' } });
    expect(
      (await app.inject({ method: 'GET', url: `/api/user-attribute/user/background/${SITE}`, headers: { cookie: `SESSION=${session}` } })).statusCode,
    ).toBe(200);
    const accepted = await logout(app, { cookie: `SESSION=${session}` }, `?post_logout_redirect_uri=${encodeURIComponent(chosen)}`);
    expect(new URL(accepted.json().endSessionUrl, 'http://portal.test').searchParams.get('post_logout_redirect_uri')).toBe(chosen);
  });

  it('the test provider refuses an unknown client or an unregistered return address with a 400, never a redirect', async () => {
    const unknown = await app.inject({ method: 'GET', url: `/test-idp/logout?client_id=nobody&post_logout_redirect_uri=${encodeURIComponent(REDIRECT_URI)}` });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields).toEqual({ client_id: 'invalid' });
    const elsewhere = await app.inject({
      method: 'GET',
      url: `/test-idp/logout?client_id=${CLIENT_ID}&post_logout_redirect_uri=${encodeURIComponent('https://evil.example/')}`,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.headers.location).toBeUndefined();
  });

  it('a site without SSO signs out as tokens/revoke does, with nowhere else to go; signed out already is still 200', async () => {
    const again = await logout(app, { 'x-site-id': 'firstbank' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ revoked: true, endSessionUrl: null });
    const withoutXsrf = await app.inject({ method: 'POST', url: '/api/logout', payload: 'null', headers: { 'content-type': 'text/plain' } });
    expect(withoutXsrf.json().error).toBe('XSRF_TOKEN_MISSING');
  });
});

it('a provider that publishes no end_session_endpoint, names another issuer or does not answer gives null: sign-out never waits on it', async () => {
  const sso = { siteId: SITE, issuerUrl: 'https://idp.example', clientId: CLIENT_ID, redirectUris: [REDIRECT_URI], clientAuth: 'none' as const };
  // A fresh transport per case: the discovery cache is kept per transport.
  const answering = (body: unknown, status = 200) => ({
    transport: {
      getJson: async () => ({ status, body }),
      postForm: async () => ({ status: 500, body: null }),
      fetch: async () =>
        status === 0 ? Promise.reject(new Error('no answer')) : new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    },
    development: false,
    credentials: new Map(),
  });
  expect(await endSessionUrlOf(sso, REDIRECT_URI, answering({ issuer: 'https://idp.example' }))).toBeNull();
  expect(
    await endSessionUrlOf(sso, REDIRECT_URI, answering({ issuer: 'https://other.example', end_session_endpoint: 'https://other.example/logout' })),
  ).toBeNull();
  expect(await endSessionUrlOf(sso, REDIRECT_URI, answering(null, 0))).toBeNull();
  expect(await endSessionUrlOf(sso, REDIRECT_URI, answering({ issuer: 'https://idp.example', end_session_endpoint: 'javascript:alert(1)' }))).toBeNull();
  expect(await endSessionUrlOf(sso, REDIRECT_URI, answering({ issuer: 'https://idp.example', end_session_endpoint: 'https://idp.example/logout?x=1' }))).toBe(
    `https://idp.example/logout?x=1&client_id=${CLIENT_ID}&post_logout_redirect_uri=${encodeURIComponent(REDIRECT_URI)}`,
  );
});
