import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRUSTED_DEVICE_COOKIE } from '../../../gateway/auth/session-cookies';
import { signValue } from '../../../gateway/auth/signed-values';
import { totpCode, totpStepAt } from '../../../gateway/auth/totp';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import { hashPassword } from '../../../gateway/security/password-hashing';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, signInWithVbaToken, type SignInGateway } from '../support/sign-in-gateway';
import { realFixtures } from '../support/test-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0009-account-lifecycle-api.md "Passwords" (SPEC §2 password, compromised-credentials;
 * §7 `change-password`, `vba/compromised-password`): the current password checked,
 * the last 4 refused, listed passwords refused, other sessions revoked; a sign-in with a listed
 * password flagged `passwordCompromised`, after the mailbox is proven when nothing else of the
 * sign-in proves the person ("Breached passwords": 401 VBA_TOKEN_REQUIRED, then `vba_token`).
 */
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };
/** On the bundled list (fixtures/common-passwords) and passing every SPEC §5 rule. */
const LISTED_PASSWORD = 'P@ssw0rd';
const WEAK = { email: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'eurobank' };

/** The real fixtures with one site's `vba` settings replaced. */
async function fixturesWithVba(siteId: string, vba: Record<string, string>): Promise<Fixtures> {
  const real = await realFixtures();
  const site = real.sites.get(siteId)!;
  const config = structuredClone(site.config);
  const feature = config.siteFeatureConfigurations.find((candidate) => candidate.name === 'vba');
  if (feature) feature.featureConfig = vba;
  else config.siteFeatureConfigurations.push({ name: 'vba', featureConfig: vba });
  return { ...real, sites: new Map([...real.sites, [siteId, { ...site, config }]]) };
}

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    await insertUser(gateway.test.db, LUKAS);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  const signIn = async (as: TestBrowser, password = LUKAS.password) => {
    const response = await as.login({ username: LUKAS.email, password, siteId: 'eurobank' });
    expect(response.statusCode).toBe(200);
    return response;
  };
  const changePassword = (currentPassword: string, password: string, confirm = password) =>
    browser.call({ method: 'POST', url: 'user-mgmt/user/change-password', json: { currentPassword, password, confirm_password: confirm } });

  it('ADR 0009: a right current password changes it; this session stays, every other one is revoked', async () => {
    await signIn(browser);
    const elsewhere = await new TestBrowser(gateway.app, '198.51.100.30').open();
    await signIn(elsewhere);
    const response = await changePassword(LUKAS.password, 'Neues#Passwort1');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'PASSWORD_CHANGED' });
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(200);
    expect((await elsewhere.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(401);
    expect(
      (await (await new TestBrowser(gateway.app, '198.51.100.31').open()).login({ username: LUKAS.email, password: 'Neues#Passwort1', siteId: 'eurobank' }))
        .statusCode,
    ).toBe(200);
  });

  it('ADR 0009 CURRENT_PASSWORD_INCORRECT: "Current password is incorrect."', async () => {
    await signIn(browser);
    const response = await changePassword('Not-The-Password1', 'Neues#Passwort1');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'CURRENT_PASSWORD_INCORRECT', message: 'Current password is incorrect.' });
  });

  it('ADR 0009 PASSWORD_REUSED and PASSWORD_COMPROMISED on change; VALIDATION_FAILED with the SPEC §5 keys', async () => {
    await signIn(browser);
    expect((await changePassword(LUKAS.password, LUKAS.password)).json()).toMatchObject({ error: 'PASSWORD_REUSED' });
    expect((await changePassword(LUKAS.password, LISTED_PASSWORD)).json()).toMatchObject({ error: 'PASSWORD_COMPROMISED' });
    expect((await changePassword(LUKAS.password, 'weak', 'weaker')).json()).toMatchObject({
      error: 'VALIDATION_FAILED',
      fields: { password: 'passwordRulesError', confirm_password: 'mustMatch' },
    });
  });

  it('change-password and vba/compromised-password need a session: 401 UNAUTHENTICATED', async () => {
    expect((await changePassword(LUKAS.password, 'Neues#Passwort1')).statusCode).toBe(401);
    const vba = await browser.call({
      method: 'POST',
      url: 'user-mgmt/user/vba/compromised-password',
      json: { password: 'Neues#Passwort1', confirm_password: 'Neues#Passwort1' },
    });
    expect(vba.statusCode).toBe(401);
  });

  it('ADR 0009: a sign-in with a listed password succeeds with passwordCompromised: true after the mailed code (login and token calls); others carry no flag', async () => {
    await insertUser(gateway.test.db, WEAK);
    const login = await signInWithVbaToken(gateway, browser, { username: WEAK.email, password: LISTED_PASSWORD, siteId: 'eurobank' });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
    const token = await signInWithVbaToken(gateway, browser, { username: WEAK.email, password: LISTED_PASSWORD, siteId: 'eurobank' }, 'user-auth/oauth/token');
    expect(token.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
    expect((await signIn(await new TestBrowser(gateway.app, '198.51.100.32').open())).json()).not.toHaveProperty('passwordCompromised');
  });

  describe('"Breached passwords" (ADR 0009): a listed password alone signs no one in; the mailbox is proven first', () => {
    const weak = (extra: Record<string, string> = {}, url?: string, as = browser) =>
      as.login({ username: WEAK.email, password: LISTED_PASSWORD, siteId: 'eurobank', ...extra }, url);
    const cookieNames = (response: { headers: Record<string, unknown> }) =>
      ([] as string[]).concat((response.headers['set-cookie'] as string | string[] | undefined) ?? []).map((line) => line.slice(0, line.indexOf('=')));

    it.each(['user-auth/login', 'user-auth/oauth/token'])(
      '%s: 401 VBA_TOKEN_REQUIRED with the masked e-mail, a login passcode mailed there, no session; the right code as vba_token signs in',
      async (url) => {
        await insertUser(gateway.test.db, { ...WEAK, phone: '91234567' });
        const asked = await weak({}, url);
        expect(asked.statusCode).toBe(401);
        expect(asked.json()).toMatchObject({
          error: 'VBA_TOKEN_REQUIRED',
          message: 'Your password appeared in a data breach; enter the passcode we just sent.',
          maskedDestination: 'w***@example.com',
        });
        // The pending sign-in, as for every 401 step (send-code purpose login answers for it); no session yet.
        expect(cookieNames(asked)).toContain('LOGIN_CHALLENGE');
        expect(cookieNames(asked)).not.toContain('SESSION');
        expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(401);
        // By e-mail, never by SMS, even for a person with a phone.
        expect(await gateway.outbox.messagesTo('91234567')).toEqual([]);
        const signedIn = await weak({ vba_token: await gateway.latestCode(WEAK.email) }, url);
        expect(signedIn.statusCode).toBe(200);
        expect(signedIn.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
        expect(cookieNames(signedIn)).toContain('SESSION');
        // On to compromised-credentials, as before (the hold of "compromised credentials" in security-rules.test.ts).
        expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).json()).toMatchObject({ error: 'PASSWORD_CHANGE_REQUIRED' });
      },
    );

    it("a login code of the person's other bank does not prove the mailbox here: vba_token takes only this site's mailed code", async () => {
      const userId = await insertUser(gateway.test.db, WEAK);
      // promotions_en_us asks no passcode either, so both sites keep the breached-password flow (ADR 0017 "the strongest rule").
      await gateway.test.db.query("insert into user_sites (user_id, site_id, attributes) values ($1, 'promotions_en_us', '{}')", [userId]);
      const atPromotions = await new TestBrowser(gateway.app, '198.51.100.36').open();
      expect((await atPromotions.login({ username: WEAK.email, password: LISTED_PASSWORD, siteId: 'promotions_en_us' })).json()).toMatchObject({
        error: 'VBA_TOKEN_REQUIRED',
      });
      const refused = await weak({ vba_token: await gateway.latestCode(WEAK.email) });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).not.toHaveProperty('status');
      expect(cookieNames(refused)).not.toContain('SESSION');
      await weak();
      expect((await weak({ vba_token: await gateway.latestCode(WEAK.email) })).json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
    });

    it('a wrong vba_token is OTP_INVALID with attemptsLeft and signs no one in; the code is single use; send-code (purpose login) mails a new one', async () => {
      await insertUser(gateway.test.db, WEAK);
      await weak();
      const code = await gateway.latestCode(WEAK.email);
      const wrong = await weak({ vba_token: code === '000000' ? '111111' : '000000' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft: 4 });
      // Any text that is not the code is a wrong code, spending an attempt.
      expect((await weak({ vba_token: 'not-a-passcode' })).json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft: 3 });
      expect(cookieNames(wrong)).not.toContain('SESSION');
      expect((await weak({ vba_token: code })).statusCode).toBe(200);
      const other = await new TestBrowser(gateway.app, '198.51.100.34').open();
      expect((await weak({ vba_token: code }, undefined, other)).json()).toMatchObject({ error: 'OTP_SPENT', attemptsLeft: 0 });

      const again = await new TestBrowser(gateway.app, '198.51.100.35').open();
      await weak({}, undefined, again);
      const mailed = (await gateway.outbox.messagesTo(WEAK.email)).length;
      const resent = await again.call({ method: 'POST', url: 'user-mgmt/user/send-code', json: { channel: 'email', purpose: 'login' } });
      expect(resent.statusCode).toBe(204);
      expect(await gateway.outbox.messagesTo(WEAK.email)).toHaveLength(mailed + 1);
      expect((await weak({ vba_token: await gateway.latestCode(WEAK.email) }, undefined, again)).json()).toMatchObject({
        status: 'SIGNED_IN',
        passwordCompromised: true,
      });
    });

    it('an expired vba_token is OTP_EXPIRED (a code lasts 10 minutes)', async () => {
      await insertUser(gateway.test.db, WEAK);
      await weak();
      gateway.clock.advance(10 * 60 + 1);
      const expired = await weak({ vba_token: await gateway.latestCode(WEAK.email) });
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toMatchObject({ error: 'OTP_EXPIRED' });
    });

    it('wrong vba_tokens count as failed sign-ins of the device (ADR 0008 DEVICE_LOCKED)', async () => {
      await insertUser(gateway.test.db, WEAK);
      await weak();
      for (let attempt = 1; attempt <= 9; attempt += 1) {
        if (attempt % 5 === 0) await weak(); // a code asked for again shares the used-up attempts (ADR 0008)
        // After five wrong ones the codes are spent: the sixth on answers OTP_SPENT, and counts against the device all the same.
        expect((await weak({ vba_token: 'guess-1' })).json()).toMatchObject({ error: attempt <= 5 ? 'OTP_INVALID' : 'OTP_SPENT' });
      }
      const locked = await weak({ vba_token: 'guess-2' });
      expect(locked.statusCode).toBe(423);
      expect(locked.json().error).toBe('DEVICE_LOCKED');
    });

    it('a vba_token sent when none is needed is ignored: a password off the list signs in at once, and no code is mailed', async () => {
      const response = await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank', vba_token: '123456' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).not.toHaveProperty('passwordCompromised');
      expect(await gateway.outbox.messagesTo(LUKAS.email)).toEqual([]);
    });

    it('a site that asks the e-mailed passcode (northbank, login_otp "email") asks it once: the passcode proves the mailbox, no second step', async () => {
      await insertUser(gateway.test.db, { ...WEAK, siteId: 'northbank' });
      const fields = { username: WEAK.email, password: LISTED_PASSWORD, siteId: 'northbank' };
      expect((await browser.login(fields)).json()).toMatchObject({ error: 'OTP_REQUIRED_EMAIL' });
      const signedIn = await browser.login({ ...fields, otp: await gateway.latestCode(WEAK.email), otp_type: 'email' });
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
      expect(await gateway.outbox.messagesTo(WEAK.email)).toHaveLength(1);
    });

    it('an authenticator code proves the person (MFA_OTP_REQUIRED, then signed in): no VBA step', async () => {
      await insertUser(gateway.test.db, { ...WEAK, password: 'Before#The-Breach1' });
      await browser.login({ username: WEAK.email, password: 'Before#The-Breach1', siteId: 'eurobank' });
      const { secret } = (await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' })).json<{ secret: string }>();
      expect(
        (await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code: totpCode(secret, totpStepAt(gateway.clock.now())) } }))
          .statusCode,
      ).toBe(200);
      // The password the person uses later turns out to be on the list.
      await gateway.test.db.query('update users set password_hash = $2 where email = $1', [WEAK.email, await hashPassword(LISTED_PASSWORD)]);
      const other = await new TestBrowser(gateway.app, '198.51.100.36').open();
      expect((await weak({}, undefined, other)).json()).toMatchObject({ error: 'MFA_OTP_REQUIRED' });
      gateway.clock.advance(30);
      const signedIn = await weak({ otp: totpCode(secret, totpStepAt(gateway.clock.now())), otp_type: 'totp' }, undefined, other);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
    });

    it("this user's trusted device proves the person: no VBA step; another user's trust does not", async () => {
      const userId = await insertUser(gateway.test.db, WEAK);
      const expiresAt = gateway.clock.now().getTime() + 15 * 60_000;
      // As a right e-mailed passcode with trust_device=true sets it (ADR 0008), with the account's stamp (ADR 0025).
      const stampOf = async (id: string) =>
        (await gateway.test.db.query<{ security_stamp: string }>('select security_stamp from users where id = $1', [id])).rows[0]!.security_stamp;
      const trustFor = async (id: string) =>
        signValue(
          { purpose: 'trusted-device', userId: id, siteId: 'eurobank', expiresAt, stamp: await stampOf(id), channel: 'email' },
          gateway.keys.token,
          gateway.clock.now(),
        );
      const lukasId = (await gateway.test.db.query<{ id: string }>('select id from users where email = $1', [LUKAS.email])).rows[0]!.id;
      browser.cookies.set(TRUSTED_DEVICE_COOKIE, await trustFor(lukasId));
      expect((await weak()).json()).toMatchObject({ error: 'VBA_TOKEN_REQUIRED' });
      const trusted = await new TestBrowser(gateway.app, '198.51.100.37').open();
      trusted.cookies.set(TRUSTED_DEVICE_COOKIE, await trustFor(userId));
      const signedIn = await weak({}, undefined, trusted);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
    });

    it('never logs the vba_token, right or wrong', async () => {
      const { logger, lines } = capturingLogger();
      const logged = await openSignInGateway(leg, { logger });
      try {
        await insertUser(logged.test.db, WEAK);
        const as = await new TestBrowser(logged.app).open();
        await weak({}, undefined, as);
        await weak({ vba_token: 'Wrong-Vba-Token-7Q3X9' }, undefined, as);
        const code = await logged.latestCode(WEAK.email);
        expect((await weak({ vba_token: code }, undefined, as)).statusCode).toBe(200);
        expect(lines.filter((line) => line.includes('"req"')).length).toBeGreaterThan(2);
        const log = lines.join('\n');
        expect(log).not.toContain('Wrong-Vba-Token-7Q3X9');
        expect(log).not.toContain(code);
        expect(log).not.toContain(LISTED_PASSWORD);
      } finally {
        await logged.dispose();
      }
    });
  });

  describe("vba.enabled (ADR 0009): the site switch of the breached-password flow, strongest of the person's sites (ADR 0017)", () => {
    const reopen = async (fixtures: Fixtures) => {
      await gateway.dispose();
      gateway = await openSignInGateway(leg, { fixtures });
      browser = await new TestBrowser(gateway.app).open();
    };

    it('"false" on the person\'s only site: no VBA step and no detour, even with compromised_password_check "true"', async () => {
      await reopen(await fixturesWithVba('eurobank', { enabled: 'false', compromised_password_check: 'true' }));
      await insertUser(gateway.test.db, WEAK);
      const signedIn = await browser.login({ username: WEAK.email, password: LISTED_PASSWORD, siteId: 'eurobank' });
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).not.toHaveProperty('passwordCompromised');
      expect(await gateway.outbox.messagesTo(WEAK.email)).toEqual([]);
      expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(200);
    });

    it('"false" on the site signed in on, but another site of the person keeps the flow (vba absent = on): the VBA step holds', async () => {
      await reopen(await fixturesWithVba('eurobank', { enabled: 'false', compromised_password_check: 'true' }));
      const userId = await insertUser(gateway.test.db, WEAK);
      // promotions_en_us asks no passcode either and has no vba feature: the flow is on there.
      await gateway.test.db.query(`insert into user_sites (user_id, site_id, attributes) values ($1, 'promotions_en_us', '{}')`, [userId]);
      const signedIn = await signInWithVbaToken(gateway, browser, { username: WEAK.email, password: LISTED_PASSWORD, siteId: 'eurobank' });
      expect(signedIn.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
    });
  });

  it('ADR 0012: on a site whose vba.compromised_password_check is "false" (harbourbank) the sign-in carries no passwordCompromised flag', async () => {
    await insertUser(gateway.test.db, { email: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'harbourbank', phone: '91234567' });
    const fields = { username: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'harbourbank' };
    // harbourbank signs in with an SMS passcode (login_otp "sms").
    expect((await browser.login(fields)).json()).toMatchObject({ error: 'OTP_REQUIRED_PHONE' });
    const signedIn = await browser.login({ ...fields, otp: await gateway.latestCode('91234567'), otp_type: 'sms' });
    expect(signedIn.json()).toMatchObject({ status: 'SIGNED_IN' });
    expect(signedIn.json()).not.toHaveProperty('passwordCompromised');
  });

  it.each(['user-mgmt/user/vba/compromised-password'])(
    'ADR 0009 %s: sets a new password for the signed-in user, keeps the session, refuses listed ones, then closes',
    async (url) => {
      await insertUser(gateway.test.db, WEAK);
      expect((await signInWithVbaToken(gateway, browser, { username: WEAK.email, password: LISTED_PASSWORD, siteId: 'eurobank' })).json()).toMatchObject({
        passwordCompromised: true,
      });
      const setPassword = (password: string) => browser.call({ method: 'POST', url, json: { password, confirm_password: password } });
      expect((await setPassword('1qaz!QAZ')).json()).toMatchObject({ error: 'PASSWORD_COMPROMISED' });
      const response = await setPassword('Much-Better#Pass9');
      expect(response.statusCode).toBe(200);
      expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(200);
      // Replaced: the call without the current password is closed again (change-password asks it).
      expect((await setPassword('Much-Better#Pass10')).json()).toMatchObject({ error: 'PASSWORD_CHANGE_NOT_REQUIRED' });
      const again = await (
        await new TestBrowser(gateway.app, '198.51.100.33').open()
      ).login({ username: 'weak@example.com', password: 'Much-Better#Pass9', siteId: 'eurobank' });
      expect(again.json()).not.toHaveProperty('passwordCompromised');
    },
  );
});
