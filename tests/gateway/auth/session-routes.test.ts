import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { revokeSession, sessionIdOf } from '../../../gateway/auth/session-store';
import { buildGateway } from '../../../gateway/server';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { API_BASES, realFixtures, withXsrf } from '../support/test-gateway';

/** ADR 0007 "Gateway sessions": the session store behind SPEC §4's background check and §7 `user-mgmt/user/find`. */
async function insertUser(test: TestDatabase, email: string, status: 'ACTIVE' | 'INACTIVE', roles: string[], siteId: string): Promise<string> {
  const inserted = await test.db.query<{ id: string }>(
    `insert into users (email, password_hash, first_name, last_name, dob, title, status, roles)
     values ($1, 'not-a-real-hash', 'Emily', 'Carter', '1988-04-12', 'Ms', $2, $3) returning id`,
    [email, status, roles],
  );
  const id = inserted.rows[0]!.id;
  await test.db.query('insert into user_sites (user_id, site_id) values ($1, $2)', [id, siteId]);
  // ADR 0017: an agent works on the sites granted in data.
  if (roles.includes('ROLE_CONCIERGE')) await test.db.query('insert into agent_site_grants (user_id, site_id) values ($1, $2)', [id, siteId]);
  return id;
}

function cookiesOf(setCookie: string | string[] | undefined): Map<string, string> {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
  return new Map(lines.map((line) => [line.slice(0, line.indexOf('=')), line]));
}

function cookieHeader(setCookie: string | string[] | undefined): string {
  return [...cookiesOf(setCookie).values()].map((line) => line.split(';')[0]).join('; ');
}

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let app: FastifyInstance;
  beforeEach(async () => {
    test = await leg.openMigrated();
    app = await buildGateway({ db: test.db, fixtures: await realFixtures(), testMode: true });
  });
  afterEach(async () => {
    await app.close();
    await test.dispose();
  });

  const signIn = (email: string, siteId = 'firstbank', base = '/api') =>
    app.inject({ method: 'POST', url: `${base}/test-support/session`, payload: { email, siteId } });

  it('§3/§9: the test-mode sign-in sets SESSION (httpOnly, Lax), gmap_authenticated, gmap_user_type and XSRF-TOKEN; only a hash is stored', async () => {
    await insertUser(test, 'emily@example.com', 'ACTIVE', ['ROLE_CARDHOLDER'], 'firstbank');
    const response = await signIn('Emily@Example.com');
    expect(response.statusCode).toBe(200);
    const cookies = cookiesOf(response.headers['set-cookie']);
    expect(cookies.get('SESSION')).toMatch(/^SESSION=[A-Za-z0-9_-]{43}; Path=\/; Expires=.+; SameSite=Lax; HttpOnly$/);
    expect(cookies.get('gmap_authenticated')).toMatch(/^gmap_authenticated=true; Path=\/; Expires=.+; SameSite=Lax$/);
    expect(cookies.get('gmap_user_type')).toMatch(/^gmap_user_type=CARDHOLDER;/);
    expect(cookies.get('XSRF-TOKEN')).toMatch(/^XSRF-TOKEN=[A-Za-z0-9_-]{32};.*SameSite=Lax$/);
    expect(cookies.get('SESSION')).not.toContain('Secure');

    const token = cookies.get('SESSION')!.split(';')[0]!.slice('SESSION='.length);
    const stored = await test.db.query<{ id: string }>('select id from sessions');
    expect(stored.rows).toEqual([{ id: sessionIdOf(token) }]);
  });

  it('§3: Secure cookies when the request came over HTTPS', async () => {
    await insertUser(test, 'emily@example.com', 'ACTIVE', ['ROLE_CARDHOLDER'], 'firstbank');
    const https = await buildGateway({ db: test.db, fixtures: await realFixtures(), testMode: true });
    // Fastify reads the scheme from the socket; a TLS socket is what `encrypted` marks.
    https.addHook('onRequest', async (request) => {
      Object.defineProperty(request.raw.socket, 'encrypted', { value: true, configurable: true });
    });
    const response = await https.inject({ method: 'POST', url: '/api/test-support/session', payload: { email: 'emily@example.com', siteId: 'firstbank' } });
    for (const line of cookiesOf(response.headers['set-cookie']).values()) expect(line).toContain('; Secure');
    await https.close();
  });

  it('§4: the background check answers true for an ACTIVE user, false for an INACTIVE one', async () => {
    await insertUser(test, 'emily@example.com', 'ACTIVE', ['ROLE_CARDHOLDER'], 'firstbank');
    await insertUser(test, 'daniel@example.com', 'INACTIVE', ['ROLE_CARDHOLDER'], 'firstbank');
    for (const base of API_BASES) {
      const active = cookieHeader((await signIn('emily@example.com', 'firstbank', base)).headers['set-cookie']);
      const inactive = cookieHeader((await signIn('daniel@example.com', 'firstbank', base)).headers['set-cookie']);
      const check = (cookie: string) => app.inject({ method: 'GET', url: `${base}/user-attribute/user/background/firstbank`, headers: { cookie } });
      expect((await check(active)).json()).toEqual({ passesBackgroundCheck: true });
      expect((await check(inactive)).json()).toEqual({ passesBackgroundCheck: false });
    }
  });

  it('§4: USER_NOT_FOUND (404 JSON) when the user has no profile on the site asked about', async () => {
    await insertUser(test, 'emily@example.com', 'ACTIVE', ['ROLE_CARDHOLDER'], 'firstbank');
    // One identity across sites (ADR 0017): signed in on northbank, where she has no profile yet.
    const cookie = cookieHeader((await signIn('emily@example.com', 'northbank')).headers['set-cookie']);
    const response = await app.inject({ method: 'GET', url: '/api/user-attribute/user/background/northbank', headers: { cookie } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'USER_NOT_FOUND', message: 'The signed-in user has no profile on this site yet.' });
  });

  it('§4: saving the site locale (user-attribute/v2) gives the user a profile on that site, so the recheck passes', async () => {
    await insertUser(test, 'emily@example.com', 'ACTIVE', ['ROLE_CARDHOLDER'], 'firstbank');
    const cookie = cookieHeader((await signIn('emily@example.com', 'northbank')).headers['set-cookie']);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(cookie)![1]!;
    const save = (payload: unknown, xsrfHeader: string = xsrf) =>
      app.inject({ method: 'POST', url: '/api/user-attribute/v2/user/northbank', headers: { cookie, 'x-xsrf-token': xsrfHeader }, payload: payload as object });
    // §7 XSRF, ADR 0008: without the echo of the cookie nothing is saved.
    const forged = await save({ attributes: { locale: 'fr_ca' } }, 'guessed');
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error).toBe('XSRF_TOKEN_INVALID');

    expect((await save({ attributes: { locale: 'fr_ca' } })).json()).toEqual({ siteId: 'northbank', attributes: { locale: 'fr_ca' }, version: 1 });
    const check = await app.inject({ method: 'GET', url: '/api/user-attribute/user/background/northbank', headers: { cookie } });
    expect(check.json()).toEqual({ passesBackgroundCheck: true });
    const stored = await test.db.query<{ attributes: unknown }>("select attributes from user_sites where site_id = 'northbank'");
    expect(stored.rows).toEqual([{ attributes: { locale: 'fr_ca' } }]);

    // A well-formed locale only; northbank (updatable "false", SPEC §6, ADR 0010) takes no profile field; nothing without a session.
    expect((await save({ attributes: { locale: 'french' } })).statusCode).toBe(400);
    expect((await save({ attributes: { locale: 'fr_ca', phone: '1' } })).statusCode).toBe(403);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/user-attribute/v2/user/northbank',
      headers: withXsrf(),
      payload: { attributes: { locale: 'fr_ca' } },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('§8: 401 UNAUTHENTICATED JSON without a session, and a dead SESSION cookie is expired', async () => {
    await insertUser(test, 'emily@example.com', 'ACTIVE', ['ROLE_CARDHOLDER'], 'firstbank');
    for (const url of ['/api/user-attribute/user/background/firstbank', '/api/user-mgmt/user/find']) {
      const none = await app.inject({ method: 'GET', url });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual({ error: 'UNAUTHENTICATED', message: 'Sign in to continue.' });
      // ADR 0008: only a fresh XSRF-TOKEN is set, no session cookie is touched.
      expect([...cookiesOf(none.headers['set-cookie']).keys()]).toEqual(['XSRF-TOKEN']);
    }
    const signedIn = await signIn('emily@example.com');
    const cookie = cookieHeader(signedIn.headers['set-cookie']);
    await revokeSession(test.db, cookie.split('; ')[0]!.slice('SESSION='.length), new Date());
    const revoked = await app.inject({ method: 'GET', url: '/api/user-mgmt/user/find', headers: { cookie } });
    expect(revoked.statusCode).toBe(401);
    expect(cookiesOf(revoked.headers['set-cookie']).get('SESSION')).toMatch(/^SESSION=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/);
  });

  it('§7/§3: user-mgmt/user/find answers the profile fields of the signed-in user; CONCIERGE users get gmap_user_type=CONCIERGE', async () => {
    const userId = await insertUser(test, 'riley@example.com', 'ACTIVE', ['ROLE_CONCIERGE'], 'firstbank');
    const signedIn = await signIn('riley@example.com');
    expect(cookiesOf(signedIn.headers['set-cookie']).get('gmap_user_type')).toMatch(/^gmap_user_type=CONCIERGE;/);
    const response = await app.inject({
      method: 'GET',
      url: '/gateway/api/user-mgmt/user/find',
      headers: { cookie: cookieHeader(signedIn.headers['set-cookie']) },
    });
    expect(response.json()).toEqual({
      dob: '1988-04-12',
      email: 'riley@example.com',
      firstName: 'Emily',
      lastName: 'Carter',
      title: 'Ms',
      userAccountStatus: 'ACTIVE',
      primaryUserIdentifier: userId,
      mfaEnrollmentStatus: 'NOT_ENROLLED',
    });
  });

  it('the test-mode sign-in refuses an unknown e-mail and a malformed body', async () => {
    expect((await signIn('nobody@example.com')).json().error).toBe('USER_NOT_FOUND');
    const malformed = await app.inject({ method: 'POST', url: '/api/test-support/session', payload: { email: 'x@example.com', siteId: '../etc' } });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('a gateway without test mode (production)', () => {
  it.each(API_BASES)('has no %s/test-support/session: 404 NOT_FOUND', async (base) => {
    const { stubDatabase } = await import('../support/test-gateway');
    const app = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), testMode: false });
    const response = await app.inject({
      method: 'POST',
      url: `${base}/test-support/session`,
      payload: { email: 'emily.carter@example.com', siteId: 'firstbank' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('NOT_FOUND');
    await app.close();
  });
});
