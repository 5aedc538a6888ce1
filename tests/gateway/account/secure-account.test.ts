import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueSecureAccountToken, MAX_LIVE_TOKENS_PER_ACCOUNT, SECURE_ACCOUNT_TOKEN_TTL_MS } from '../../../gateway/account/secure-account';
import { KNOWN_DEVICES_PER_ACCOUNT, rememberSignInDevice } from '../../../gateway/auth/known-devices';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, signInWithPasscode, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * ADR 0021 "Telling the holder", "This wasn't me": the token of a notice's link, posted to the public
 * `user-mgmt/user/secure-account`, ends every session, refresh token and trusted device of its account, puts back
 * what ADR 0025 keeps provisional for 7 days (tests/gateway/security/phone-proof.test.ts), and changes nothing else; it works once and for 7 days, and an unknown, spent or expired token answers alike.
 * Opening the link changes nothing (mail scanners fetch links). No token reaches a log line or the database.
 */
const CAMILLE = { email: 'camille@example.com', password: 'Maple#Erable2025', siteId: 'maplecu', phone: '514-555-0143' };
const SECURE = 'user-mgmt/user/secure-account';
const LINK_TOKEN = /\/maplecu\/[a-z]{2}_[a-z]{2}\/account\/secure-account\?token=([A-Za-z0-9_-]{43})/;
const INVALID = { status: 400, error: 'SECURE_ACCOUNT_LINK_INVALID', fields: { token: 'invalid' } };

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let userId: string;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    userId = await insertUser(gateway.test.db, CAMILLE);
  });
  afterEach(() => gateway.dispose());

  /** Camille signs in on a browser of her own (maplecu mails a passcode), trusting it when asked. */
  async function camilleOn(ip: string, fields: Record<string, string> = {}): Promise<TestBrowser> {
    const browser = await new TestBrowser(gateway.app, ip).open();
    const signedIn = await signInWithPasscode(gateway, browser, { username: CAMILLE.email, password: CAMILLE.password, siteId: 'maplecu', ...fields });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    return browser;
  }
  /** The token of the newest notice to `to` that has a link. */
  async function newestLinkToken(to: string): Promise<string> {
    const token = (await gateway.outbox.messagesTo(to)).map((message) => LINK_TOKEN.exec(message.text)?.[1]).find((found) => found !== undefined);
    expect(token).toBeDefined();
    return token!;
  }
  /** Posts `token` as the secure-account page's button does, from a browser of its own (or `as`). */
  const secure = async (token: unknown, as?: TestBrowser) =>
    (as ?? (await new TestBrowser(gateway.app, '203.0.113.70').open())).call({ method: 'POST', url: SECURE, json: { token } });
  const signedInStill = async (browser: TestBrowser) => (await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode === 200;
  const refusal = (response: LightMyRequestResponse) => ({ status: response.statusCode, ...response.json<Record<string, unknown>>(), message: undefined });

  it('ends every session, refresh token and trusted device of the account, changes nothing else, and works once; opening the link changes nothing', async () => {
    const phone = await camilleOn('198.51.100.31', { trust_device: 'true' });
    const tablet = await new TestBrowser(gateway.app, '198.51.100.32').open();
    const tokens = await signInWithPasscode(
      gateway,
      tablet,
      { username: CAMILLE.email, password: CAMILLE.password, siteId: 'maplecu' },
      'user-auth/oauth/token',
    );
    const refreshToken = tokens.json<{ refresh_token: string }>().refresh_token;
    const token = await newestLinkToken(CAMILLE.email);

    // A mail scanner, or the holder, opening the link: the page loads and nothing else happens.
    await gateway.app.inject({ method: 'GET', url: `/maplecu/en_us/account/secure-account?token=${token}` });
    expect(await signedInStill(phone)).toBe(true);
    expect(await signedInStill(tablet)).toBe(true);
    expect((await gateway.test.db.query('select 1 from secure_account_tokens where used_at is not null')).rows).toEqual([]);

    const stampBefore = (await gateway.test.db.query<{ security_stamp: string }>('select security_stamp from users where id = $1', [userId])).rows[0];
    const secured = await secure(token);
    expect(secured.statusCode, secured.body).toBe(200);
    expect(secured.json()).toEqual({ status: 'ACCOUNT_SECURED', email: CAMILLE.email, undone: [] });
    expect(await signedInStill(phone)).toBe(false);
    expect(await signedInStill(tablet)).toBe(false);
    const refreshed = await tablet.call({
      method: 'POST',
      url: 'user-auth/oauth/token',
      form: { grant_type: 'refresh_token', refresh_token: refreshToken, siteId: 'maplecu' },
    });
    expect(refreshed.json()).toMatchObject({ error: 'INVALID_GRANT' });
    expect((await gateway.test.db.query<{ security_stamp: string }>('select security_stamp from users where id = $1', [userId])).rows[0]).not.toEqual(
      stampBefore,
    );
    // The trusted device asks the passcode again; the password, the phone and the profile are as they were.
    const again = await phone.login({ username: CAMILLE.email, password: CAMILLE.password, siteId: 'maplecu' });
    expect(again.json()).toMatchObject({ error: 'OTP_REQUIRED_EMAIL' });
    const kept = await gateway.test.db.query<{ status: string; phone: string }>(
      `select u.status, s.attributes->>'phone' as phone from users u join user_sites s on s.user_id = u.id where u.id = $1`,
      [userId],
    );
    expect(kept.rows).toEqual([{ status: 'ACTIVE', phone: CAMILLE.phone }]);

    // Once only: the same link again is refused like any other bad link, and ends nothing new.
    const second = await camilleOn('198.51.100.33');
    expect(refusal(await secure(token))).toEqual({ ...INVALID, message: undefined });
    expect(await signedInStill(second)).toBe(true);
  });

  it('an unknown, a spent and an expired token, and junk, answer the same 400; a token past its 7 days ends nothing', async () => {
    await camilleOn('198.51.100.31');
    await camilleOn('198.51.100.34');
    const [expiring, spent] = [await issueSecureAccountToken(gateway.test.db, userId, gateway.clock.now(), true), await newestLinkToken(CAMILLE.email)];
    expect((await secure(spent)).statusCode).toBe(200);
    const stillIn = await camilleOn('198.51.100.35');
    gateway.clock.advance(SECURE_ACCOUNT_TOKEN_TTL_MS / 1000 + 1);
    const answers = await Promise.all(
      [expiring, spent, 'A'.repeat(43), 'not-a-token', ''].map(async (token) => {
        const response = await secure(token);
        return { ...refusal(response), body: response.json<{ message: string }>().message };
      }),
    );
    for (const answer of answers) expect(answer).toEqual({ ...INVALID, message: undefined, body: answers[0]?.body });
    // The expired link ended nothing: the session opened after the spent one is not revoked (it ran out on its own).
    const live = await gateway.test.db.query<{ id: string }>('select id from sessions where user_id = $1 and revoked_at is null', [userId]);
    expect(live.rows).toHaveLength(1);
    expect(stillIn.cookies.has('SESSION')).toBe(true);
  });

  it('a link texted to the old phone secures the account without naming its address; odd bodies are 400 VALIDATION_FAILED', async () => {
    const browser = await camilleOn('198.51.100.31');
    const saved = await browser.call({ method: 'POST', url: 'user-attribute/v2/user/maplecu', json: { attributes: { phone: '514-555-0177' } } });
    expect(saved.statusCode, saved.body).toBe(200);
    const token = await newestLinkToken('5145550143');
    expect((await secure(token)).json<unknown>()).toEqual({ status: 'ACCOUNT_SECURED', email: null, undone: ['phone'] });
    expect(await signedInStill(browser)).toBe(false);
    // ADR 0025: the new number, still waiting for its code, leaves the profile: the phone is the one passcodes go to.
    const shown = await gateway.test.db.query<{ phone: string }>(`select attributes->>'phone' as phone from user_sites where user_id = $1`, [userId]);
    expect(shown.rows).toEqual([{ phone: '5145550143' }]);

    const anyone = await new TestBrowser(gateway.app, '203.0.113.71').open();
    expect((await anyone.call({ method: 'POST', url: SECURE, json: {} })).json()).toMatchObject({ error: 'VALIDATION_FAILED' });
    expect((await anyone.call({ method: 'POST', url: SECURE, json: { token, userId } })).json()).toMatchObject({ error: 'VALIDATION_FAILED' });
    expect((await anyone.call({ method: 'POST', url: SECURE, json: { token: 'x'.repeat(257) } })).statusCode).toBe(400);
  });

  it('counts toward the per-IP limit of the public account calls: 429 past 20 in 15 minutes, whatever the token', async () => {
    const guesser = await new TestBrowser(gateway.app, '203.0.113.72').open();
    for (let call = 0; call < 20; call++) expect((await secure('B'.repeat(43), guesser)).statusCode).toBe(400);
    const limited = await secure('B'.repeat(43), guesser);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'RATE_LIMITED' });
  });

  it('never logs a link’s token or a passcode, and the database keeps only the token’s hash', async () => {
    const { logger, lines } = capturingLogger();
    await gateway.dispose();
    gateway = await openSignInGateway(leg, { logger });
    userId = await insertUser(gateway.test.db, CAMILLE);
    const browser = await camilleOn('198.51.100.31', { trust_device: 'true' });
    const passcode = await gateway.latestCode(CAMILLE.email);
    await camilleOn('198.51.100.36');
    const token = await newestLinkToken(CAMILLE.email);
    await gateway.app.inject({ method: 'GET', url: `/maplecu/en_us/account/secure-account?token=${token}` });
    expect((await secure(token)).statusCode).toBe(200);
    await secure(token);
    expect(lines.filter((line) => line.includes('"req"')).length).toBeGreaterThan(5);
    const log = lines.join('\n');
    expect(log).not.toContain(token);
    expect(log).not.toContain('secure-account?token=');
    expect(log).not.toContain(passcode);
    const dump = JSON.stringify((await gateway.test.db.query('select * from secure_account_tokens')).rows);
    expect(dump).not.toContain(token);
    expect(dump).toMatch(/[0-9a-f]{64}/);
    expect(await signedInStill(browser)).toBe(false);
  });

  describe('bounds: what one account can make the gateway keep', () => {
    it(`keeps at most ${MAX_LIVE_TOKENS_PER_ACCOUNT} live links per account, the newest, and drops spent and expired ones`, async () => {
      const issued: string[] = [];
      for (let index = 0; index < MAX_LIVE_TOKENS_PER_ACCOUNT + 5; index++) {
        gateway.clock.advance(1);
        issued.push(await issueSecureAccountToken(gateway.test.db, userId, gateway.clock.now(), true));
      }
      expect((await gateway.test.db.query('select 1 from secure_account_tokens')).rows).toHaveLength(MAX_LIVE_TOKENS_PER_ACCOUNT);
      expect((await secure(issued[0])).statusCode).toBe(400);
      expect((await secure(issued.at(-1))).statusCode).toBe(200);
      gateway.clock.advance(SECURE_ACCOUNT_TOKEN_TTL_MS / 1000 + 1);
      await issueSecureAccountToken(gateway.test.db, userId, gateway.clock.now(), true);
      expect((await gateway.test.db.query('select 1 from secure_account_tokens')).rows).toHaveLength(1);
    });

    it(`remembers at most ${KNOWN_DEVICES_PER_ACCOUNT} devices per account, those seen last`, async () => {
      const sightings: string[] = [];
      for (let index = 0; index < KNOWN_DEVICES_PER_ACCOUNT + 5; index++) {
        gateway.clock.advance(1);
        sightings.push(await rememberSignInDevice(gateway.test.db, userId, `device-${index}`, gateway.clock.now()));
      }
      expect(sightings[0]).toBe('first');
      expect(new Set(sightings.slice(1))).toEqual(new Set(['new']));
      expect((await gateway.test.db.query('select 1 from known_devices where user_id = $1', [userId])).rows).toHaveLength(KNOWN_DEVICES_PER_ACCOUNT);
      expect(await rememberSignInDevice(gateway.test.db, userId, `device-${KNOWN_DEVICES_PER_ACCOUNT + 4}`, gateway.clock.now())).toBe('known');
      // The oldest were forgotten: the first device is new again.
      expect(await rememberSignInDevice(gateway.test.db, userId, 'device-0', gateway.clock.now())).toBe('new');
    });
  });
});
