import { afterEach, beforeEach, expect, it } from 'vitest';
import { totpCode, totpStepAt } from '../../../gateway/auth/totp';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/** ADR 0008 mfa/totp/setup, enroll, unenroll and MFA_OTP_REQUIRED; SPEC §2 mfa-setup, §3 mfaEnrollmentStatus. */
const EMILY = { email: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank', phone: '2025550143' };

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    await insertUser(gateway.test.db, EMILY);
    browser = await new TestBrowser(gateway.app).open();
    // Signed in with the e-mailed code (firstbank: login_otp email).
    await browser.login({ username: EMILY.email, password: EMILY.password, siteId: 'firstbank' });
    await browser.login({
      username: EMILY.email,
      password: EMILY.password,
      siteId: 'firstbank',
      otp: await gateway.latestCode(EMILY.email),
      otp_type: 'email',
    });
  });
  afterEach(() => gateway.dispose());

  const codeNow = (secret: string, offsetSteps = 0) => totpCode(secret, totpStepAt(gateway.clock.now()) + offsetSteps);
  const emily = (extra: Record<string, string> = {}) => browser.login({ username: EMILY.email, password: EMILY.password, siteId: 'firstbank', ...extra });

  async function enrol(): Promise<string> {
    const setup = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrSvg } = setup.json<{ secret: string; otpauthUrl: string; qrSvg: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(`otpauth://totp/Rewards%20Portal:emily%40example.com?secret=${secret}&issuer=Rewards+Portal&algorithm=SHA1&digits=6&period=30`);
    expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const enrolled = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code: codeNow(secret) } });
    expect(enrolled.statusCode).toBe(200);
    // Enrolment hands out the ten backup codes (tests/gateway/auth/backup-codes.test.ts).
    expect(enrolled.json()).toEqual({
      mfaEnrollmentStatus: 'ENROLLED',
      backupCodes: expect.arrayContaining([expect.stringMatching(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/)]),
    });
    expect(enrolled.json().backupCodes).toHaveLength(10);
    return secret;
  }

  it('setup keeps the secret sealed (AES-256-GCM) at rest; enroll with a computed code makes find answer ENROLLED', async () => {
    const secret = await enrol();
    const stored = await gateway.test.db.query<{ secret_sealed: string; status: string }>('select secret_sealed, status from totp_secrets');
    expect(stored.rows[0]?.status).toBe('ENROLLED');
    // Sealed under the TOTP ring's current key, named in the value (ADR 0026): before any rotation the environment's.
    expect(stored.rows[0]?.secret_sealed).toMatch(/^v2\.env\./);
    expect(stored.rows[0]?.secret_sealed).not.toContain(secret);
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).json().mfaEnrollmentStatus).toBe('ENROLLED');
    // A second setup while enrolled is refused.
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' })).statusCode).toBe(409);
  });

  it('ADR 0008 "Set-up asked for again": a set-up within 10 minutes answers the same pending secret, which still enrols; later a new one', async () => {
    const setUp = async () => (await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' })).json<{ secret: string }>().secret;
    const first = await setUp();
    gateway.clock.advance(9 * 60);
    expect(await setUp()).toBe(first);
    gateway.clock.advance(2 * 60);
    // The sign-in's proof has run out too (ADR 0025): the person confirms it's them by an e-mailed code.
    await browser.call({ method: 'POST', url: 'user-mgmt/user/send-code', json: { channel: 'email', purpose: 'otp-check' } });
    await browser.call({ method: 'POST', url: 'user-auth/otp/verify', json: { otp: await gateway.latestCode(EMILY.email), otp_type: 'email' } });
    const renewed = await setUp();
    expect(renewed).not.toBe(first);
    expect(await setUp()).toBe(renewed);
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code: codeNow(renewed) } })).statusCode).toBe(200);
  });

  it('enroll refuses a wrong code with 400 OTP_INVALID (not 401, which would sign the app out, SPEC §8)', async () => {
    await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' });
    const wrong = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code: '000000' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('OTP_INVALID');
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code: 'abc' } })).json().error).toBe('VALIDATION_FAILED');
  });

  it('ADR 0008 MFA_OTP_REQUIRED takes precedence over the e-mailed code; a computed code signs in; the same step is not accepted twice', async () => {
    const secret = await enrol();
    await browser.call({ method: 'POST', url: 'user-auth/tokens/revoke' });
    const sentBefore = (await gateway.outbox.messagesTo(EMILY.email)).length;

    const first = await emily();
    expect(first.statusCode).toBe(401);
    expect(first.json().error).toBe('MFA_OTP_REQUIRED');
    expect(browser.cookies.has('LOGIN_CHALLENGE')).toBe(true);
    expect((await gateway.outbox.messagesTo(EMILY.email)).length).toBe(sentBefore);

    // The enrolment used this step; the next one signs in.
    gateway.clock.advance(30);
    const code = codeNow(secret);
    const signedIn = await emily({ otp: code, otp_type: 'totp' });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ status: 'SIGNED_IN', mfaEnrollmentStatus: 'ENROLLED' });
    const replay = await emily({ otp: code, otp_type: 'totp' });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft: 4 });
    // ±1 step of drift is accepted: the next step's code now.
    expect((await emily({ otp: codeNow(secret, 1), otp_type: 'totp' })).statusCode).toBe(200);
    // An e-mail code type does not satisfy an enrolled authenticator.
    expect((await emily({ otp: '123456', otp_type: 'email' })).json().error).toBe('MFA_OTP_REQUIRED');
  });

  it('5 wrong authenticator codes leave no attempts until the window ends', async () => {
    const secret = await enrol();
    let last = await emily({ otp: '000001', otp_type: 'totp' });
    for (let attempt = 2; attempt <= 5; attempt += 1) last = await emily({ otp: `00000${attempt}`, otp_type: 'totp' });
    expect(last.json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft: 0 });
    gateway.clock.advance(30);
    expect((await emily({ otp: codeNow(secret), otp_type: 'totp' })).json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft: 0 });
    gateway.clock.advance(10 * 60);
    expect((await emily({ otp: codeNow(secret), otp_type: 'totp' })).statusCode).toBe(200);
  });

  it('otp/verify accepts an authenticator code; unenroll with a code returns to NOT_ENROLLED and e-mailed codes', async () => {
    const secret = await enrol();
    gateway.clock.advance(30);
    const verified = await browser.call({ method: 'POST', url: 'user-auth/otp/verify', json: { otp: codeNow(secret), otp_type: 'totp' } });
    expect(verified.statusCode).toBe(200);
    gateway.clock.advance(30);
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/unenroll', json: { code: '000000' } })).statusCode).toBe(400);
    const unenrolled = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/unenroll', json: { code: codeNow(secret) } });
    expect(unenrolled.json()).toEqual({ mfaEnrollmentStatus: 'NOT_ENROLLED' });
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).json().mfaEnrollmentStatus).toBe('NOT_ENROLLED');
    expect((await gateway.test.db.query('select * from totp_secrets')).rows).toEqual([]);
    await browser.call({ method: 'POST', url: 'user-auth/tokens/revoke' });
    expect((await emily()).json().error).toBe('OTP_REQUIRED_EMAIL');
  });

  it('setup, enroll and unenroll need a session', async () => {
    const stranger = await new TestBrowser(gateway.app, '198.51.100.50').open();
    for (const url of ['user-mgmt/user/mfa/totp/setup', 'user-mgmt/user/mfa/totp/enroll', 'user-mgmt/user/mfa/totp/unenroll']) {
      const response = await stranger.call({ method: 'POST', url, json: { code: '123456' } });
      expect(response.statusCode).toBe(401);
    }
  });
});
