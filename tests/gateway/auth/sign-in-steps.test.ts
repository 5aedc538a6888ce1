import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TRUSTED_DEVICE_COOKIE } from '../../../gateway/auth/session-cookies';
import { signValue } from '../../../gateway/auth/signed-values';
import { SIGN_IN_LIMITS } from '../../../gateway/limits/sign-in-limits';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0008-sign-in-api.md and docs/decisions/0025-fresh-proof.md: the steps of a password sign-in after the
 * password (gateway/auth/password-sign-in.ts) that sign-in-passcodes.test.ts does not walk: which channel a code
 * goes by and is taken by, which failures count against the device and the per-IP code checks, when a
 * TRUSTED_DEVICE cookie stands for the sign-in and what trusting a browser records, the lock's notice, and the
 * proofs the session is given.
 */
const EMILY = { email: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank', phone: '2025550143' };
const ANA_NO_PHONE = { email: 'ana.nophone@example.com', password: 'Recompensas@2025', siteId: 'bancosol' };
const VALENTINA = { email: 'valentina@example.com', password: 'Sabana#Colombia1', siteId: 'sabana', phone: '3001234567' };
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };
/** On the bundled list (fixtures/common-passwords) and passing every SPEC §5 rule. */
const LISTED_PASSWORD = 'P@ssw0rd';

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  const ids: Record<string, string> = {};
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    for (const user of [EMILY, ANA_NO_PHONE, VALENTINA, LUKAS]) ids[user.email] = await insertUser(gateway.test.db, user);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  const emily = (extra: Record<string, string> = {}, as = browser) =>
    as.login({ username: EMILY.email, password: EMILY.password, siteId: 'firstbank', ...extra });
  const setCookieOf = (response: LightMyRequestResponse, name: string) =>
    ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((line) => line.startsWith(`${name}=`));
  /** Nine failed sign-ins of this browser's device, on accounts that do not exist (no account lock in the way). */
  const nineDeviceFailures = async () => {
    for (let attempt = 1; attempt < SIGN_IN_LIMITS.failuresPerDevice; attempt += 1) {
      expect((await browser.login({ username: `stranger${attempt}@example.com`, password: 'wrong', siteId: 'firstbank' })).json().error).toBe(
        'BAD_CREDENTIALS',
      );
    }
  };

  it('ADR 0008: an sms site e-mails the code to a person without a phone, and takes it as an e-mailed code', async () => {
    const first = await browser.login({ username: ANA_NO_PHONE.email, password: ANA_NO_PHONE.password, siteId: 'bancosol' });
    expect(first.json()).toMatchObject({ error: 'OTP_REQUIRED_EMAIL', maskedDestination: 'a***@example.com' });
    const code = await gateway.latestCode(ANA_NO_PHONE.email);
    const signedIn = await browser.login({ username: ANA_NO_PHONE.email, password: ANA_NO_PHONE.password, siteId: 'bancosol', otp: code, otp_type: 'email' });
    expect(signedIn.statusCode).toBe(200);
  });

  it('ADR 0008: an authenticator code type without an enrolled authenticator is no passcode: the code is sent, nothing checked', async () => {
    const answer = await emily({ otp: '123456', otp_type: 'totp' });
    expect(answer.json()).toMatchObject({ error: 'OTP_REQUIRED_EMAIL', maskedDestination: 'e***@example.com' });
    expect(await gateway.outbox.messagesTo(EMILY.email)).toHaveLength(1);
  });

  it('ADR 0025 "Channels come from the site": a code is taken only as the channel it went by', async () => {
    const valentina = (extra: Record<string, string> = {}) =>
      browser.login({ username: VALENTINA.email, password: VALENTINA.password, siteId: 'sabana', ...extra });
    await valentina();
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/send-code', json: { channel: 'email', purpose: 'login' } })).statusCode).toBe(204);
    const code = await gateway.latestCode(VALENTINA.email);
    expect((await valentina({ otp: code, otp_type: 'sms' })).json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft: 4 });
    expect((await valentina({ otp: code, otp_type: 'email' })).statusCode).toBe(200);
  });

  it('ADR 0008 device limit: an expired code counts as a failed sign-in of the device', async () => {
    await emily();
    const code = await gateway.latestCode(EMILY.email);
    gateway.clock.advance(10 * 60);
    await nineDeviceFailures();
    const expired = await emily({ otp: code, otp_type: 'email' });
    expect(expired.statusCode).toBe(423);
    expect(expired.json().error).toBe('DEVICE_LOCKED');
  });

  it('ADR 0008 device limit: a spent code counts as a failed sign-in of the device', async () => {
    await emily();
    const code = await gateway.latestCode(EMILY.email);
    expect((await emily({ otp: code, otp_type: 'email' })).statusCode).toBe(200);
    await nineDeviceFailures();
    const spent = await emily({ otp: code, otp_type: 'email' });
    expect(spent.statusCode).toBe(423);
    expect(spent.json().error).toBe('DEVICE_LOCKED');
  });

  it('ADR 0008 device limit: being asked for a code is no failure of the device', async () => {
    await nineDeviceFailures();
    for (let ask = 1; ask <= 3; ask += 1) expect((await emily()).json().error).toBe('OTP_REQUIRED_EMAIL');
    expect((await browser.login({ username: 'stranger10@example.com', password: 'wrong', siteId: 'firstbank' })).json().error).toBe('DEVICE_LOCKED');
  });

  it('ADR 0008 429: a backup code typed at sign-in counts toward the 60 code checks per IP', async () => {
    // A backup code where no authenticator is enrolled is still a guess at a code.
    await emily({ backup_code: 'AAAAA-AAAAA' });
    await emily();
    expect((await emily({ otp: await gateway.latestCode(EMILY.email), otp_type: 'email' })).statusCode).toBe(200);
    // Two checks so far (the backup code and the passcode); 58 more reach the 60 of ADR 0008 "Limits".
    const verify = () => browser.call({ method: 'POST', url: 'user-auth/otp/verify', json: { otp: '000000', otp_type: 'email' } });
    for (let check = 3; check < 60; check += 1) await verify();
    expect((await verify()).statusCode).not.toBe(429);
    expect((await verify()).statusCode).toBe(429);
  });

  it('ADR 0008: a wrong code answer keeps the pending sign-in (LOGIN_CHALLENGE); a 429 sets none', async () => {
    await emily();
    const code = await gateway.latestCode(EMILY.email);
    const wrong = await emily({ otp: code === '000000' ? '111111' : '000000', otp_type: 'email' });
    expect(wrong.json().error).toBe('OTP_INVALID');
    expect(setCookieOf(wrong, 'LOGIN_CHALLENGE')).toMatch(/; HttpOnly/);
    for (let send = 2; send <= SIGN_IN_LIMITS.codeSendsPerAccount; send += 1) await emily();
    const limited = await emily();
    expect(limited.statusCode).toBe(429);
    expect(setCookieOf(limited, 'LOGIN_CHALLENGE')).toBeUndefined();
  });

  it('ADR 0025 "Trusted devices": a trust stands only for this account as it is now, on this site, after a passcode by a channel the site allows', async () => {
    const stamp = (await gateway.test.db.query<{ security_stamp: string }>('select security_stamp from users where id = $1', [ids[EMILY.email]])).rows[0]!
      .security_stamp;
    const trust = (fields: Record<string, string | undefined>) => {
      // As a right e-mailed passcode with trust_device=true signs it; `fields` change one member (undefined: left out).
      const payload = {
        purpose: 'trusted-device',
        userId: ids[EMILY.email]!,
        siteId: 'firstbank',
        expiresAt: gateway.clock.now().getTime() + 15 * 60_000,
        stamp,
        channel: 'email',
        ...fields,
      } as Parameters<typeof signValue>[0];
      const value = signValue(payload, gateway.keys.token, gateway.clock.now());
      browser.cookies.set(TRUSTED_DEVICE_COOKIE, value);
    };
    for (const [why, fields] of [
      ['another account', { userId: ids[LUKAS.email] }],
      ['another site', { siteId: 'eurobank' }],
      ['a stamp since changed', { stamp: '00000000-0000-4000-8000-000000000000' }],
      ['a channel the site does not use', { channel: 'sms' }],
      ['no channel', { channel: undefined }],
    ] as const) {
      trust(fields);
      expect({ why, error: (await emily()).json().error }).toEqual({ why, error: 'OTP_REQUIRED_EMAIL' });
    }
    trust({});
    expect((await emily()).statusCode).toBe(200);
  });

  it('ADR 0025: trusting the same browser again ends the trust it replaces; a trust of another account in it is left alone', async () => {
    const trustedRows = async () =>
      (
        await gateway.test.db.query<{ user_id: string; live: boolean }>(
          'select user_id, ended_at is null as live from trusted_devices order by created_at, ended_at nulls last',
        )
      ).rows;
    const trustWithCode = async () => {
      await emily();
      gateway.clock.advance(1);
      return emily({ otp: await gateway.latestCode(EMILY.email), otp_type: 'email', trust_device: 'true' });
    };
    const first = await trustWithCode();
    expect(setCookieOf(first, TRUSTED_DEVICE_COOKIE)).toMatch(/; HttpOnly/);
    expect(await trustedRows()).toEqual([{ user_id: ids[EMILY.email], live: true }]);
    // Once the account's stamp changes (a new password, say) the trust no longer skips the passcode; trusting the
    // browser again ends the row of the trust its cookie named.
    await gateway.test.db.query('update users set security_stamp = gen_random_uuid() where id = $1', [ids[EMILY.email]]);
    expect((await trustWithCode()).statusCode).toBe(200);
    expect(await trustedRows()).toEqual([
      { user_id: ids[EMILY.email], live: false },
      { user_id: ids[EMILY.email], live: true },
    ]);
    // Valentina signs in with a trust in the same browser: Emily's trust stays live.
    const valentina = await browser.login({ username: VALENTINA.email, password: VALENTINA.password, siteId: 'sabana' });
    expect(valentina.json().error).toBe('OTP_REQUIRED');
    await browser.call({ method: 'POST', url: 'user-mgmt/user/send-code', json: { channel: 'email', purpose: 'login' } });
    gateway.clock.advance(1);
    const trustedValentina = await browser.login({
      username: VALENTINA.email,
      password: VALENTINA.password,
      siteId: 'sabana',
      otp: await gateway.latestCode(VALENTINA.email),
      otp_type: 'email',
      trust_device: 'true',
    });
    expect(trustedValentina.statusCode).toBe(200);
    expect(await trustedRows()).toEqual([
      { user_id: ids[EMILY.email], live: false },
      { user_id: ids[EMILY.email], live: true },
      { user_id: ids[VALENTINA.email], live: true },
    ]);
  });

  it('ADR 0009: a listed password on a passcode site is flagged once the passcode signs in, and after a trusted device too', async () => {
    const weak = { email: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'firstbank' };
    await insertUser(gateway.test.db, weak);
    const login = (extra: Record<string, string> = {}) => browser.login({ username: weak.email, password: weak.password, siteId: 'firstbank', ...extra });
    expect((await login()).json().error).toBe('OTP_REQUIRED_EMAIL');
    const signedIn = await login({ otp: await gateway.latestCode(weak.email), otp_type: 'email', trust_device: 'true' });
    expect(signedIn.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
    const trusted = await login();
    expect(trusted.statusCode).toBe(200);
    expect(trusted.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
  });

  it('ADR 0025: the session of a sign-in holds its proofs: right after it, a change that owns the account needs no new proof', async () => {
    await emily();
    expect((await emily({ otp: await gateway.latestCode(EMILY.email), otp_type: 'email' })).statusCode).toBe(200);
    const setup = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' });
    expect(setup.statusCode, setup.body).toBe(200);
    // A password site: the password is the proof.
    const other = await new TestBrowser(gateway.app, '198.51.100.60').open();
    expect((await other.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' })).statusCode).toBe(200);
    const lukasSetup = await other.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' });
    expect(lukasSetup.statusCode, lukasSetup.body).toBe(200);
  });

  it('ADR 0021: the wrong password that locks the account mails its notice, saying the lock ends 15 minutes on', async () => {
    // The notice in German (the site's locale), as tests/gateway/account/account-notices.test.ts reads it.
    await gateway.test.db.query(`update user_sites set attributes = '{"locale": "de_de"}' where user_id = $1`, [ids[LUKAS.email]]);
    for (let attempt = 1; attempt <= SIGN_IN_LIMITS.passwordFailuresPerAccount; attempt += 1) {
      await browser.login({ username: LUKAS.email, password: 'Wrong#Password1', siteId: 'eurobank' });
    }
    const until = new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
      new Date(gateway.clock.now().getTime() + 15 * 60_000),
    );
    const mails = await gateway.outbox.messagesTo(LUKAS.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`bis ${until} UTC gesperrt`);
  });

  it('ADR 0021: a wrong password that locks the device, not the account, mails the account no lock notice', async () => {
    await nineDeviceFailures();
    const locking = await browser.login({ username: LUKAS.email, password: 'Wrong#Password1', siteId: 'eurobank' });
    expect(locking.json().error).toBe('DEVICE_LOCKED');
    expect(await gateway.outbox.messagesTo(LUKAS.email)).toEqual([]);
  });

  it('ADR 0008: the user name is found whatever its case and surrounding spaces', async () => {
    expect((await browser.login({ username: '  Lukas@EXAMPLE.com ', password: LUKAS.password, siteId: 'eurobank' })).statusCode).toBe(200);
  });
});
