import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/** ADR 0008 refresh_token grant (rotation, family revocation) and tokens/revoke; SPEC §4 refresh and logout. */
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    await insertUser(gateway.test.db, LUKAS);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  const tokenSignIn = async () => {
    const response = await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' }, 'user-auth/oauth/token');
    return response.json<{ refresh_token: string; access_token: string }>();
  };
  const refresh = (token: string) =>
    browser.call({ method: 'POST', url: 'user-auth/oauth/token', form: { grant_type: 'refresh_token', refresh_token: token, siteId: 'eurobank' } });

  it('rotates: a refresh gives new tokens and a new session; the old refresh token replayed revokes the family (401 INVALID_GRANT)', async () => {
    const { refresh_token: first } = await tokenSignIn();
    const rotated = await refresh(first);
    expect(rotated.statusCode).toBe(200);
    const second = rotated.json().refresh_token as string;
    expect(second).not.toBe(first);
    expect(rotated.json()).toMatchObject({ status: 'SIGNED_IN', token_type: 'bearer', expires_in: 1800 });
    expect(browser.cookies.get('gmap_authenticated')).toBe('true');

    const replay = await refresh(first);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: 'INVALID_GRANT', message: 'The refresh token is not valid; sign in again.' });
    // The whole family died with the replay, the newest token included, and so did its sessions.
    expect((await refresh(second)).json().error).toBe('INVALID_GRANT');
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(401);
  });

  it('a refresh token replayed after logout answers 401 INVALID_GRANT; logout clears the cookies and kills the session', async () => {
    const { refresh_token: token } = await tokenSignIn();
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(200);
    const sessionCookie = browser.cookies.get('SESSION');

    const logout = await browser.call({ method: 'POST', url: 'user-auth/tokens/revoke', headers: { 'content-type': 'text/plain' } });
    expect(logout.statusCode).toBe(200);
    const expired = ([] as string[]).concat(logout.headers['set-cookie'] ?? []).filter((line) => line.includes('Expires=Thu, 01 Jan 1970'));
    expect(expired.map((line) => line.slice(0, line.indexOf('=')))).toEqual([
      'SESSION',
      'gmap_authenticated',
      'gmap_user_type',
      'gmap_support_details',
      'LOGIN_CHALLENGE',
    ]);
    expect(browser.cookies.has('SESSION')).toBe(false);
    expect(browser.cookies.has('XSRF-TOKEN')).toBe(true);

    // The old SESSION cookie, presented again, is dead.
    const stale = await gateway.app.inject({ method: 'GET', url: '/api/user-mgmt/user/find', headers: { cookie: `SESSION=${sessionCookie}` } });
    expect(stale.statusCode).toBe(401);
    expect((await refresh(token)).json().error).toBe('INVALID_GRANT');
  });

  it('revoke with ?refresh_token= revokes that family even without a session; 200 when already signed out', async () => {
    const { refresh_token: token } = await tokenSignIn();
    const other = await new TestBrowser(gateway.app, '198.51.100.60').open();
    const revoked = await other.call({ method: 'POST', url: `user-auth/tokens/revoke?refresh_token=${token}`, json: null });
    expect(revoked.statusCode).toBe(200);
    expect((await refresh(token)).json().error).toBe('INVALID_GRANT');
    expect((await other.call({ method: 'POST', url: 'user-auth/tokens/revoke' })).statusCode).toBe(200);
    // Whatever the body type: the app sends "null" as text/plain, axios defaults may differ.
    const xsrf = other.cookies.get('XSRF-TOKEN')!;
    const urlencoded = await gateway.app.inject({
      method: 'POST',
      url: '/api/user-auth/tokens/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
      payload: 'null',
    });
    expect(urlencoded.statusCode).toBe(200);
  });

  it('an unknown, missing or expired refresh token answers INVALID_GRANT / 400', async () => {
    expect((await refresh('not-a-token')).json().error).toBe('INVALID_GRANT');
    const missing = await browser.call({ method: 'POST', url: 'user-auth/oauth/token', form: { grant_type: 'refresh_token' } });
    expect(missing.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { refresh_token: 'required' } });
    const { refresh_token: token } = await tokenSignIn();
    gateway.clock.advance(8 * 60 * 60);
    expect((await refresh(token)).json().error).toBe('INVALID_GRANT');
  });

  it('the session expires after 30 minutes on the gateway clock (SPEC §4 access expiry)', async () => {
    await tokenSignIn();
    gateway.clock.advance(30 * 60);
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(401);
  });
});
