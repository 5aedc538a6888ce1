import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, signInWithPasscode, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0017-threat-model.md, the outside review's findings on sign-in and sessions:
 * a sign-in takes its rules from the person's sites, never from the request's `siteId` alone
 * (finding 2); an agent signs in only on a site granted in data (finding 3); a session never writes
 * another site (finding 5); a refresh and a new sign-in end the session they replace (finding 9).
 */
const EMILY = { email: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank' };
const ANA = { email: 'ana@example.com', password: 'Recompensas@2025', siteId: 'bancosol', phone: '11987654321' };
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };
const RILEY = { email: 'riley@example.com', password: 'Concierge!Desk5', siteId: 'firstbank', roles: ['ROLE_CONCIERGE'] };

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    for (const user of [EMILY, ANA, LUKAS, RILEY]) await insertUser(gateway.test.db, user);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  const sessions = async () =>
    (await gateway.test.db.query<{ site_id: string; live: boolean }>('select site_id, revoked_at is null as live from sessions order by created_at')).rows;

  describe("finding 2: the sign-in rule is the strongest of the person's sites", () => {
    it('a firstbank holder (e-mail passcode) naming eurobank (no passcode) still gets the e-mail passcode, and no session', async () => {
      const response = await browser.login({ username: EMILY.email, password: EMILY.password, siteId: 'eurobank' });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe('OTP_REQUIRED_EMAIL');
      expect(browser.cookies.has('SESSION')).toBe(false);
      expect(await sessions()).toEqual([]);
      const withCode = await browser.login({
        username: EMILY.email,
        password: EMILY.password,
        siteId: 'eurobank',
        otp: await gateway.latestCode(EMILY.email),
        otp_type: 'email',
      });
      expect(withCode.statusCode).toBe(200);
      expect(await sessions()).toEqual([{ site_id: 'eurobank', live: true }]);
    });

    it('a bancosol holder (SMS passcode) naming eurobank on the token call gets the SMS passcode', async () => {
      const response = await browser.login({ username: ANA.email, password: ANA.password, siteId: 'eurobank' }, 'user-auth/oauth/token');
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe('OTP_REQUIRED_PHONE');
      expect(await sessions()).toEqual([]);
    });

    it("a eurobank holder (no passcode) signing in on firstbank gets firstbank's e-mail passcode: the site signed in on always counts", async () => {
      const response = await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'firstbank' });
      expect(response.json().error).toBe('OTP_REQUIRED_EMAIL');
    });

    it('the SSO-only site never accepts a password, whether or not the account exists, on both sign-in calls', async () => {
      const answers = [];
      for (const url of ['user-auth/login', 'user-auth/oauth/token']) {
        for (const [username, password] of [
          [EMILY.email, EMILY.password],
          ['nobody@example.com', 'Nobody#2026x'],
          [EMILY.email, 'wrong-password'],
        ]) {
          const response = await browser.login({ username: username!, password: password!, siteId: 'unionbank' }, url);
          answers.push({ status: response.statusCode, body: response.json() });
        }
      }
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(answers[0]).toEqual({
        status: 403,
        body: { error: 'SSO_REQUIRED', message: 'This site signs in through its identity provider, not with a password.', fields: { siteId: 'ssoOnly' } },
      });
      expect(await sessions()).toEqual([]);
    });
  });

  describe('finding 3: agents sign in only on the sites granted to them', () => {
    it('the agent of firstbank naming eurobank gets the answer of a wrong password, and no session', async () => {
      const elsewhere = await browser.login({ username: RILEY.email, password: RILEY.password, siteId: 'eurobank' });
      const wrongPassword = await new TestBrowser(gateway.app, '198.51.100.31')
        .open()
        .then((other) => other.login({ username: RILEY.email, password: 'Not!ThePassword1', siteId: 'firstbank' }));
      expect(elsewhere.statusCode).toBe(401);
      // The same answer as a wrong password's, one attempt apart: the refusal counts toward the lock too (ADR 0008).
      const { attemptsLeft, ...refusal } = elsewhere.json<{ attemptsLeft: number }>();
      expect(wrongPassword.json()).toEqual({ ...refusal, attemptsLeft: attemptsLeft - 1 });
      expect(await sessions()).toEqual([]);
    });

    it("on firstbank, the granted site, the agent signs in (with firstbank's e-mail passcode)", async () => {
      const response = await signInWithPasscode(gateway, browser, { username: RILEY.email, password: RILEY.password, siteId: 'firstbank' });
      expect(response.statusCode).toBe(200);
      expect(response.json().user_type).toBe('CONCIERGE');
      expect(await sessions()).toEqual([{ site_id: 'firstbank', live: true }]);
    });
  });

  describe('finding 5: a session creates nothing on another site', () => {
    it('a eurobank session cannot give itself a profile or cards on firstbank; on eurobank it can save', async () => {
      expect((await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' })).statusCode).toBe(200);
      const profile = await browser.call({ method: 'POST', url: 'user-attribute/v2/user/firstbank', json: { attributes: { locale: 'en_us' } } });
      expect(profile.statusCode).toBe(403);
      expect(profile.json().error).toBe('SITE_MISMATCH');
      const cards = await browser.call({
        method: 'POST',
        url: 'user-attribute/user/assets',
        json: { siteId: 'firstbank', userAssetRequest: [{ assetType: 'PAN', value: '4111 1111 1111 1111' }] },
      });
      expect(cards.statusCode).toBe(403);
      const rows = await gateway.test.db.query(`select site_id from user_sites where user_id = (select id from users where email = $1) order by site_id`, [
        LUKAS.email,
      ]);
      expect(rows.rows).toEqual([{ site_id: 'eurobank' }]);
      expect((await gateway.test.db.query('select 1 from assets')).rows).toEqual([]);
      const own = await browser.call({
        method: 'POST',
        url: 'user-attribute/v2/user/eurobank',
        json: { attributes: { locale: 'de_de' } },
        headers: { 'x-site-id': 'eurobank' },
      });
      expect(own.statusCode, own.body).toBe(200);
    });

    it("reading cards without naming a site gives only the session's site", async () => {
      await gateway.test.db.query(
        `insert into assets (user_id, site_id, last_four, pan_fingerprint, is_default) select id, 'firstbank', '1111', repeat('a', 64), true from users where email = $1`,
        [LUKAS.email],
      );
      expect((await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' })).statusCode).toBe(200);
      const all = await browser.call({ method: 'GET', url: 'user-attribute/user/assets' });
      expect(all.statusCode).toBe(200);
      expect(all.json()).toEqual([]);
    });
  });

  describe('finding 9: the session a refresh or a new sign-in replaces ends', () => {
    it('a refresh ends the session it replaces; the refresh token of another site is refused unspent', async () => {
      const signedIn = await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' }, 'user-auth/oauth/token');
      const oldSession = browser.cookies.get('SESSION');
      const refreshToken = signedIn.json().refresh_token as string;
      const elsewhere = await browser.call({
        method: 'POST',
        url: 'user-auth/oauth/token',
        form: { grant_type: 'refresh_token', refresh_token: refreshToken, siteId: 'firstbank' },
      });
      expect(elsewhere.statusCode).toBe(403);
      expect(elsewhere.json().error).toBe('SITE_MISMATCH');
      const refreshed = await browser.call({
        method: 'POST',
        url: 'user-auth/oauth/token',
        form: { grant_type: 'refresh_token', refresh_token: refreshToken, siteId: 'eurobank' },
      });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      expect(browser.cookies.get('SESSION')).not.toBe(oldSession);
      const stale = await gateway.app.inject({ method: 'GET', url: '/api/user-mgmt/user/find', headers: { cookie: `SESSION=${oldSession}` } });
      expect(stale.statusCode).toBe(401);
      expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(200);
    });

    it("signing in as someone else in the same browser ends the previous person's session and refresh tokens", async () => {
      const first = await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' }, 'user-auth/oauth/token');
      const lukasSession = browser.cookies.get('SESSION');
      const lukasRefresh = first.json().refresh_token as string;
      expect((await signInWithPasscode(gateway, browser, { username: RILEY.email, password: RILEY.password, siteId: 'firstbank' })).statusCode).toBe(200);
      const stale = await gateway.app.inject({ method: 'GET', url: '/api/user-mgmt/user/find', headers: { cookie: `SESSION=${lukasSession}` } });
      expect(stale.statusCode).toBe(401);
      const refresh = await new TestBrowser(gateway.app, '198.51.100.40')
        .open()
        .then((other) =>
          other.call({ method: 'POST', url: 'user-auth/oauth/token', form: { grant_type: 'refresh_token', refresh_token: lukasRefresh, siteId: 'eurobank' } }),
        );
      expect(refresh.statusCode).toBe(401);
      expect(await sessions()).toEqual([
        { site_id: 'eurobank', live: false },
        { site_id: 'firstbank', live: true },
      ]);
    });
  });
});
