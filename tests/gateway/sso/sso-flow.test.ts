import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';
import { withXsrf } from '../support/test-gateway';
import { LOGIN_REQUEST_TTL_SECONDS } from '../../../gateway/sso/relying-party';
import { CODE_TTL_SECONDS } from '../../../gateway/sso/test-identity-provider';

/**
 * SPEC §2 (redirect-sso, SSO parameters), §3 (`site_auth_profile`), §7 (oidc
 * authorize): the authorization-code flow with PKCE against the gateway's test identity provider
 * on unionbank (ADR 0015), and every refusal of its "Bad input".
 */
const SITE = 'unionbank';
const CLIENT_ID = 'unionbank-rewards-portal';
const REDIRECT_URI = '/unionbank/en_us/account/redirect-sso';
const GRACE = { subject: 'ub-000417', email: 'grace.villanueva@example.com' };

function cookiesOf(setCookie: string | string[] | undefined): Map<string, string> {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
  return new Map(lines.map((line) => [line.slice(0, line.indexOf('=')), line.split(';')[0]!.slice(line.indexOf('=') + 1)]));
}

interface Started {
  /** The test provider's authorization URL the gateway redirected to. */
  authorizeUrl: URL;
  binding: string;
}

async function start(app: FastifyInstance, params: Record<string, string> = {}): Promise<Started> {
  const query = new URLSearchParams({
    siteId: SITE,
    client_id: CLIENT_ID,
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: REDIRECT_URI,
    ...params,
  });
  const response = await app.inject({ method: 'GET', url: `/api/user-auth/oidc/authorize?${query.toString()}` });
  expect(response.statusCode, response.body).toBe(302);
  const binding = cookiesOf(response.headers['set-cookie']).get('gmap_sso_binding');
  expect(binding).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return { authorizeUrl: new URL(String(response.headers.location), 'http://portal.test'), binding: binding! };
}

/** The test provider's authorize endpoint and the simulator's identity picker, as the browser walks them. */
async function pickIdentity(app: FastifyInstance, authorizeUrl: URL, subject = GRACE.subject): Promise<{ code: string; state: string; redirectTo: string }> {
  const authorize = await app.inject({ method: 'GET', url: `${authorizeUrl.pathname}${authorizeUrl.search}` });
  expect(authorize.statusCode, authorize.body).toBe(302);
  const picker = new URL(String(authorize.headers.location), 'http://portal.test');
  expect(picker.pathname).toBe('/unionbank/en_us/account/sso-simulator');
  const interaction = picker.searchParams.get('interaction')!;
  const listed = await app.inject({ method: 'GET', url: `/test-idp/interactions/${interaction}` });
  expect(listed.json().identities).toContainEqual({ subject: GRACE.subject, email: GRACE.email, givenName: 'Grace', familyName: 'Villanueva' });
  const chosen = await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject } });
  expect(chosen.statusCode, chosen.body).toBe(200);
  const redirectTo = chosen.json().redirectTo as string;
  const back = new URL(redirectTo, 'http://portal.test');
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, redirectTo };
}

function finish(app: FastifyInstance, answer: { code: string; state: string }, binding: string | null) {
  return app.inject({
    method: 'POST',
    url: '/api/user-auth/oidc/authorize',
    headers: withXsrf(binding === null ? {} : { cookie: `gmap_sso_binding=${binding}` }),
    payload: { siteId: SITE, ...answer },
  });
}

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let app: FastifyInstance;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    app = gateway.app;
  });
  afterEach(() => gateway.dispose());

  it('serves an OpenID provider shape: discovery names the issuer and endpoints, the JWKS an ES256 key', async () => {
    const discovery = (await app.inject({ method: 'GET', url: '/test-idp/.well-known/openid-configuration' })).json();
    expect(discovery).toMatchObject({
      issuer: 'http://127.0.0.1/test-idp',
      authorization_endpoint: '/test-idp/authorize',
      token_endpoint: '/test-idp/token',
      jwks_uri: '/test-idp/jwks',
      code_challenge_methods_supported: ['S256'],
    });
    const jwks = (await app.inject({ method: 'GET', url: '/test-idp/jwks' })).json();
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })]);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('happy path: start -> provider with PKCE S256, state and nonce -> pick Grace -> code back to the registered URI -> signed in, landing on last_visited_path', async () => {
    const { authorizeUrl, binding } = await start(app, { last_visited_path: '/unionbank/en_us/account/site-settings' });
    expect(authorizeUrl.pathname).toBe('/test-idp/authorize');
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizeUrl.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizeUrl.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The verifier stays on the server: nothing the browser sees carries it.
    const stored = await gateway.test.db.query<{ code_verifier: string }>('select code_verifier from sso_login_requests');
    expect(authorizeUrl.toString()).not.toContain(stored.rows[0]!.code_verifier);

    const answer = await pickIdentity(app, authorizeUrl);
    expect(answer.redirectTo.startsWith(`${REDIRECT_URI}?code=`)).toBe(true);
    expect(answer.state).toBe(authorizeUrl.searchParams.get('state'));
    const signedIn = await finish(app, answer, binding);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ status: 'SIGNED_IN', user_type: 'CARDHOLDER', lastVisitedPath: '/unionbank/en_us/account/site-settings' });
    const session = cookiesOf(signedIn.headers['set-cookie']).get('SESSION');
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookiesOf(signedIn.headers['set-cookie']).get('gmap_sso_binding')).toBe('');

    const background = await app.inject({ method: 'GET', url: `/api/user-attribute/user/background/${SITE}`, headers: { cookie: `SESSION=${session}` } });
    expect(background.json()).toEqual({ passesBackgroundCheck: true });
    const user = await gateway.test.db.query<{ email: string; first_name: string; status: string }>('select email, first_name, status from users');
    expect(user.rows).toEqual([{ email: GRACE.email, first_name: 'Grace', status: 'ACTIVE' }]);

    // The same person signing in again is the same account.
    const again = await start(app);
    expect((await finish(app, await pickIdentity(app, again.authorizeUrl), again.binding)).statusCode).toBe(200);
    expect((await gateway.test.db.query('select id from users')).rows).toHaveLength(1);
  });

  it('ADR 0009 "Activation": a registration of the address that nobody activated (someone else\'s password) is no one\'s: the verified address gets an active account of its own, and that password signs in no more', async () => {
    const registered = await insertUser(gateway.test.db, { email: GRACE.email, password: 'Squatters#Pass77', siteId: 'firstbank', status: 'INACTIVE' });
    const { authorizeUrl, binding } = await start(app);
    const signedIn = await finish(app, await pickIdentity(app, authorizeUrl), binding);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const session = cookiesOf(signedIn.headers['set-cookie']).get('SESSION');
    const background = await app.inject({ method: 'GET', url: `/api/user-attribute/user/background/${SITE}`, headers: { cookie: `SESSION=${session}` } });
    expect(background.json()).toEqual({ passesBackgroundCheck: true });
    const users = await gateway.test.db.query<{ id: string; first_name: string; status: string }>('select id, first_name, status from users');
    expect(users.rows).toEqual([{ id: expect.any(String), first_name: 'Grace', status: 'ACTIVE' }]);
    expect(users.rows[0]!.id).not.toBe(registered);
    // The registrant's profile went with their account, and their password opens nothing.
    expect((await gateway.test.db.query(`select 1 from user_sites where site_id = 'firstbank'`)).rows).toEqual([]);
    const browser = await new TestBrowser(app).open();
    const squatter = await browser.login({ username: GRACE.email, password: 'Squatters#Pass77', siteId: 'firstbank' });
    expect(squatter.json()).toMatchObject({ error: 'BAD_CREDENTIALS' });
  });

  it('refuses a tampered state (400 SSO_STATE_INVALID naming state) and signs no one in', async () => {
    const { authorizeUrl, binding } = await start(app);
    const answer = await pickIdentity(app, authorizeUrl);
    const tampered = await finish(app, { ...answer, state: `${answer.state.slice(0, -1)}${answer.state.endsWith('A') ? 'B' : 'A'}` }, binding);
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toMatchObject({ error: 'SSO_STATE_INVALID', fields: { state: 'invalid' } });
    expect(cookiesOf(tampered.headers['set-cookie']).has('SESSION')).toBe(false);
  });

  it('refuses a state used a second time, and a state finished from another browser (no binding cookie)', async () => {
    const first = await start(app);
    const answer = await pickIdentity(app, first.authorizeUrl);
    const foreign = await finish(app, answer, null);
    expect(foreign.json()).toMatchObject({ error: 'SSO_STATE_INVALID', message: expect.stringContaining('another browser') });
    // The state was spent by that attempt: the right browser cannot use it afterwards either.
    const replay = await finish(app, answer, first.binding);
    expect(replay.json()).toMatchObject({ error: 'SSO_STATE_INVALID' });
  });

  it('refuses a replayed authorization code at the token endpoint (invalid_grant), even with a fresh state', async () => {
    const { authorizeUrl, binding } = await start(app);
    const answer = await pickIdentity(app, authorizeUrl);
    expect((await finish(app, answer, binding)).statusCode).toBe(200);
    const second = await start(app);
    const replayed = await finish(app, { code: answer.code, state: new URL(second.authorizeUrl).searchParams.get('state')! }, second.binding);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ error: 'SSO_CODE_REJECTED', message: expect.stringContaining('already used') });
  });

  it(`refuses an expired code (older than ${CODE_TTL_SECONDS} s)`, async () => {
    const { authorizeUrl, binding } = await start(app);
    const answer = await pickIdentity(app, authorizeUrl);
    gateway.clock.advance(CODE_TTL_SECONDS + 1);
    const late = await finish(app, answer, binding);
    expect(late.json()).toMatchObject({ error: 'SSO_CODE_REJECTED', message: expect.stringContaining('expired') });
  });

  it(`refuses a state older than ${LOGIN_REQUEST_TTL_SECONDS} s, and the next start clears such rows away`, async () => {
    const { authorizeUrl, binding } = await start(app);
    const answer = await pickIdentity(app, authorizeUrl);
    gateway.clock.advance(LOGIN_REQUEST_TTL_SECONDS + 1);
    const late = await finish(app, answer, binding);
    expect(late.json()).toMatchObject({ error: 'SSO_STATE_INVALID', message: expect.stringContaining('too long') });
    const next = await start(app);
    expect((await gateway.test.db.query('select state_hash from sso_login_requests')).rows).toHaveLength(1);
    await app.inject({ method: 'GET', url: `${next.authorizeUrl.pathname}${next.authorizeUrl.search}` });
    expect((await gateway.test.db.query('select id from test_idp_authorizations')).rows).toHaveLength(1);
  });

  it('token endpoint: a wrong PKCE verifier and a mismatched redirect_uri are refused, and the code is spent by the try', async () => {
    const { authorizeUrl } = await start(app);
    const { code } = await pickIdentity(app, authorizeUrl);
    const token = (fields: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/test-idp/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, ...fields }).toString(),
      });
    const wrongVerifier = await token({ code_verifier: 'a'.repeat(43) });
    expect(wrongVerifier.statusCode).toBe(400);
    expect(wrongVerifier.json()).toMatchObject({ error: 'invalid_grant', fields: { code_verifier: 'invalid' } });
    expect((await token({ code_verifier: 'a'.repeat(43) })).json().message).toContain('already used');

    const other = await start(app);
    const second = await pickIdentity(app, other.authorizeUrl);
    const mismatched = await app.inject({
      method: 'POST',
      url: '/test-idp/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: second.code,
        client_id: CLIENT_ID,
        redirect_uri: 'http://127.0.0.1:8080/unionbank/en_us/account/redirect-sso',
        code_verifier: 'b'.repeat(43),
      }).toString(),
    });
    expect(mismatched.json()).toMatchObject({ error: 'invalid_grant', fields: { redirect_uri: 'invalid' } });
  });

  describe('refuses, never follows, a redirect_uri or last_visited_path off the site', () => {
    it.each([
      [
        'an unregistered redirect_uri',
        { redirect_uri: 'https://evil.example/unionbank/en_us/account/redirect-sso' },
        'REDIRECT_URI_NOT_REGISTERED',
        'redirect_uri',
      ],
      ['a registered one with a suffix', { redirect_uri: `${REDIRECT_URI}/x` }, 'REDIRECT_URI_NOT_REGISTERED', 'redirect_uri'],
      [
        'a protocol-relative last_visited_path',
        { last_visited_path: '//evil.example/en_us/account/profile' },
        'LAST_VISITED_PATH_OFF_SITE',
        'last_visited_path',
      ],
      ['an absolute last_visited_path', { last_visited_path: 'https://evil.example/en_us/account/profile' }, 'LAST_VISITED_PATH_OFF_SITE', 'last_visited_path'],
      ['a script last_visited_path', { last_visited_path: 'javascript:alert(1)//en_us/' }, 'LAST_VISITED_PATH_OFF_SITE', 'last_visited_path'],
      ["another site's client_id", { client_id: 'someone-else' }, 'SSO_CLIENT_MISMATCH', 'client_id'],
      ['a malformed nonce', { nonce: '<script>' }, 'VALIDATION_FAILED', 'nonce'],
      ['a malformed state', { state: 'short' }, 'VALIDATION_FAILED', 'state'],
    ])('%s: 400 with the code and field, no redirect', async (_name, params, code, field) => {
      const query = new URLSearchParams({ siteId: SITE, client_id: CLIENT_ID, response_type: 'code', scope: 'openid', redirect_uri: REDIRECT_URI, ...params });
      const response = await app.inject({ method: 'GET', url: `/api/user-auth/oidc/authorize?${query.toString()}` });
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.json()).toMatchObject({ error: code, fields: { [field]: 'invalid' } });
    });

    it('the provider itself refuses an unregistered redirect_uri with a 400, not a redirect', async () => {
      const { authorizeUrl } = await start(app);
      authorizeUrl.searchParams.set('redirect_uri', 'https://evil.example/cb');
      const response = await app.inject({ method: 'GET', url: `${authorizeUrl.pathname}${authorizeUrl.search}` });
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.json()).toMatchObject({ error: 'REDIRECT_URI_NOT_REGISTERED' });
    });

    it('a site without SSO cannot start the flow', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/user-auth/oidc/authorize?siteId=firstbank' });
      expect(response.json()).toMatchObject({ error: 'SSO_NOT_ENABLED', fields: { siteId: 'invalid' } });
    });
  });

  it('the authorize POST needs the XSRF pair and names a missing code', async () => {
    const noXsrf = await app.inject({
      method: 'POST',
      url: '/api/user-auth/oidc/authorize',
      payload: { siteId: SITE, code: 'x'.repeat(43), state: 'y'.repeat(43) },
    });
    expect(noXsrf.json().error).toBe('XSRF_TOKEN_MISSING');
    const missing = await app.inject({
      method: 'POST',
      url: '/api/user-auth/oidc/authorize',
      headers: withXsrf(),
      payload: { siteId: SITE, state: 'y'.repeat(43) },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('VALIDATION_FAILED');
  });

  it('an interaction answered once cannot be answered again, and an unknown identity is refused', async () => {
    const { authorizeUrl } = await start(app);
    const authorize = await app.inject({ method: 'GET', url: `${authorizeUrl.pathname}${authorizeUrl.search}` });
    const interaction = new URL(String(authorize.headers.location), 'http://portal.test').searchParams.get('interaction')!;
    const unknown = await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: 'nobody' } });
    expect(unknown.json()).toMatchObject({ error: 'UNKNOWN_IDENTITY', fields: { subject: 'invalid' } });
    expect((await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: GRACE.subject } })).statusCode).toBe(200);
    const twice = await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: GRACE.subject } });
    expect(twice.statusCode).toBe(404);
    expect(twice.json().error).toBe('INTERACTION_NOT_FOUND');
  });
});
