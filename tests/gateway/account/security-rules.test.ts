import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSession } from '../../../gateway/auth/session-store';
import { SIGN_IN_LIMITS } from '../../../gateway/limits/sign-in-limits';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, signInWithPasscode, signInWithVbaToken, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * Security rules that agree with each other, held by the gateway (SPEC §2 compromised-credentials,
 * password, mfa-setup, delete-profile; ADR 0008 limits, ADR 0009, ADR 0014, ADR 0015): what a screen
 * hides, the API refuses too.
 */
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };
/** On the bundled breached list (fixtures/common-passwords) and passing every SPEC §5 rule. */
const LISTED_PASSWORD = 'P@ssw0rd';

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  const find = (as = browser) => as.call({ method: 'GET', url: 'user-mgmt/user/find' });
  const userCount = async (email: string) =>
    (await gateway.test.db.query<{ n: number }>('select count(*)::int as n from users where email = $1', [email])).rows[0]!.n;
  /** A session opened as the SSO callback opens it (ADR 0015), for an account with no usable password. */
  const ssoSession = async (email: string, siteId: string): Promise<TestBrowser> => {
    const userId = await insertUser(gateway.test.db, { email, password: 'unused-Password-1', siteId });
    await gateway.test.db.query(`update users set password_hash = '!sso' where id = $1`, [userId]);
    const session = await openSession(gateway.test.db, userId, siteId, gateway.clock.now());
    const as = await new TestBrowser(gateway.app, '198.51.100.60').open();
    as.cookies.set('SESSION', session.token);
    return as;
  };

  describe('compromised credentials (ADR 0009): the password change cannot be skipped', () => {
    beforeEach(() => insertUser(gateway.test.db, { email: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'eurobank' }));
    const replace = (password: string, as = browser) =>
      as.call({ method: 'POST', url: 'user-mgmt/user/vba/compromised-password', json: { password, confirm_password: password } });

    it('after a sign-in with a breached password, the profile, attributes and cards answer 403 PASSWORD_CHANGE_REQUIRED; after the change, 200', async () => {
      expect(
        (await signInWithVbaToken(gateway, browser, { username: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'eurobank' })).json(),
      ).toMatchObject({ passwordCompromised: true });
      for (const url of ['user-mgmt/user/find', 'user-attribute/user/eurobank', 'user-attribute/user/assets/eurobank']) {
        const refused = await browser.call({ method: 'GET', url });
        expect(refused.statusCode, url).toBe(403);
        expect(refused.json(), url).toMatchObject({ error: 'PASSWORD_CHANGE_REQUIRED' });
      }
      const changeWithCurrent = await browser.call({
        method: 'POST',
        url: 'user-mgmt/user/change-password',
        json: { currentPassword: LISTED_PASSWORD, password: 'Much-Better#Pass9', confirm_password: 'Much-Better#Pass9' },
      });
      expect(changeWithCurrent.json()).toMatchObject({ error: 'PASSWORD_CHANGE_REQUIRED' });
      // What the app needs to know it is signed in and to send the person to the change.
      expect((await browser.call({ method: 'GET', url: 'user-attribute/user/background/eurobank' })).statusCode).toBe(200);

      expect((await replace('Much-Better#Pass9')).statusCode).toBe(200);
      expect((await find()).statusCode).toBe(200);
    });

    it('a refreshed token and a second sign-in are held too, until the password is replaced', async () => {
      const token = await signInWithVbaToken(
        gateway,
        browser,
        { username: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'eurobank' },
        'user-auth/oauth/token',
      );
      const refreshed = await browser.call({
        method: 'POST',
        url: 'user-auth/oauth/token',
        form: { grant_type: 'refresh_token', refresh_token: token.json().refresh_token as string },
      });
      expect(refreshed.statusCode).toBe(200);
      expect((await find()).json()).toMatchObject({ error: 'PASSWORD_CHANGE_REQUIRED' });
      const other = await new TestBrowser(gateway.app, '198.51.100.61').open();
      expect((await signInWithVbaToken(gateway, other, { username: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'eurobank' })).statusCode).toBe(200);
      expect((await find(other)).statusCode).toBe(403);
      expect((await replace('Much-Better#Pass9', other)).statusCode).toBe(200);
      expect((await find(other)).statusCode).toBe(200);
    });

    it('without a breached-password sign-in, vba/compromised-password (no current password asked) answers 403 PASSWORD_CHANGE_NOT_REQUIRED', async () => {
      await insertUser(gateway.test.db, LUKAS);
      await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' });
      const refused = await replace('Stolen-Session#Pass1');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'PASSWORD_CHANGE_NOT_REQUIRED' });
      expect(
        (await (await new TestBrowser(gateway.app, '198.51.100.62').open()).login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' }))
          .statusCode,
      ).toBe(200);
    });
  });

  describe('sign-in limits (ADR 0008): the last attempts are counted down, a reset ends the lock', () => {
    beforeEach(() => insertUser(gateway.test.db, LUKAS));
    const wrong = () => browser.login({ username: LUKAS.email, password: 'Not-The-Password1', siteId: 'eurobank' });

    it('each wrong password answers attemptsLeft; the lock answers lockedUntil with Retry-After', async () => {
      const left: unknown[] = [];
      for (let attempt = 1; attempt < SIGN_IN_LIMITS.passwordFailuresPerAccount; attempt += 1) left.push((await wrong()).json().attemptsLeft);
      expect(left).toEqual([4, 3, 2, 1]);
      const before = gateway.clock.now().getTime();
      const lock = await wrong();
      const after = gateway.clock.now().getTime();
      expect(lock.statusCode).toBe(423);
      expect(Number(lock.headers['retry-after'])).toBe(SIGN_IN_LIMITS.lockMs / 1000);
      const lockedUntil = new Date(lock.json().lockedUntil as string).getTime();
      expect(lockedUntil).toBeGreaterThanOrEqual(before + SIGN_IN_LIMITS.lockMs);
      expect(lockedUntil).toBeLessThanOrEqual(after + SIGN_IN_LIMITS.lockMs);
    });

    it('an unknown user name counts down alike (no enumeration)', async () => {
      const unknown = await browser.login({ username: 'nobody@example.com', password: 'Not-The-Password1', siteId: 'eurobank' });
      expect(unknown.json()).toMatchObject({ error: 'BAD_CREDENTIALS', attemptsLeft: 4 });
    });

    it('a password reset through the mailed passcode ends the lock: the new password signs in at once', async () => {
      for (let attempt = 0; attempt < SIGN_IN_LIMITS.passwordFailuresPerAccount; attempt += 1) await wrong();
      expect((await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' })).json()).toMatchObject({ error: 'USER_LOCKED' });
      const recovering = await new TestBrowser(gateway.app, '198.51.100.63').open();
      await recovering.call({ method: 'POST', url: 'user-mgmt/user/send-passcode', json: { email: LUKAS.email, siteId: 'eurobank', locale: 'en_us' } });
      const passcode = await gateway.latestCode(LUKAS.email);
      const reset = await recovering.call({
        method: 'POST',
        url: 'user-mgmt/user/change-password-from-passcode',
        json: { email: LUKAS.email, passcode, password: 'Reset-Works#42', confirm_password: 'Reset-Works#42' },
      });
      expect(reset.statusCode).toBe(200);
      const signIn = await recovering.login({ username: LUKAS.email, password: 'Reset-Works#42', siteId: 'eurobank' });
      expect(signIn.statusCode).toBe(200);
      // The streak starts again too: one wrong password leaves 4.
      expect((await wrong()).json()).toMatchObject({ attemptsLeft: 4 });
    });
  });

  describe('single sign-on (ADR 0015): no password to change here', () => {
    it('change-password answers 403 PASSWORD_MANAGED_BY_SSO for an SSO account and on an SSO site', async () => {
      const sso = await ssoSession('grace@example.com', 'eurobank');
      const body = { currentPassword: 'anything-1A', password: 'Much-Better#Pass9', confirm_password: 'Much-Better#Pass9' };
      const refused = await sso.call({ method: 'POST', url: 'user-mgmt/user/change-password', json: body });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'PASSWORD_MANAGED_BY_SSO' });
      const onSsoSite = await ssoSession('ada@example.com', 'unionbank');
      expect((await onSsoSite.call({ method: 'POST', url: 'user-mgmt/user/change-password', json: body })).json()).toMatchObject({
        error: 'PASSWORD_MANAGED_BY_SSO',
      });
    });
  });

  describe('a site without MFA (site_auth_profile.mfa "off") offers no authenticator set-up', () => {
    it('vppcards: totp/setup and totp/enroll answer 403 MFA_NOT_OFFERED; eurobank (optional) sets up', async () => {
      await insertUser(gateway.test.db, { email: 'val@example.com', password: LUKAS.password, siteId: 'vppcards' });
      expect((await signInWithPasscode(gateway, browser, { username: 'val@example.com', password: LUKAS.password, siteId: 'vppcards' })).statusCode).toBe(200);
      for (const [url, json] of [
        ['user-mgmt/user/mfa/totp/setup', undefined],
        ['user-mgmt/user/mfa/totp/enroll', { code: '123456' }],
      ] as const) {
        const refused = await browser.call({ method: 'POST', url, json });
        expect(refused.statusCode, url).toBe(403);
        expect(refused.json(), url).toMatchObject({ error: 'MFA_NOT_OFFERED' });
      }
      await insertUser(gateway.test.db, LUKAS);
      const euro = await new TestBrowser(gateway.app, '198.51.100.64').open();
      await euro.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' });
      expect((await euro.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' })).statusCode).toBe(200);
    });
  });

  describe('deleting the account asks the password or a passcode (ADR 0009 "Deletion")', () => {
    const removeAccount = (json?: unknown, as = browser) =>
      as.call({ method: 'POST', url: 'user-mgmt/user/remove-account', ...(json === undefined ? {} : { json }) });
    beforeEach(async () => {
      await insertUser(gateway.test.db, LUKAS);
      await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' });
    });

    it('an empty body answers 400 naming password; the account stays', async () => {
      for (const body of [undefined, {}, { password: '' }]) {
        const refused = await removeAccount(body);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { password: 'required' } });
      }
      expect(await userCount(LUKAS.email)).toBe(1);
    });

    it('a wrong password is refused (403 PASSWORD_INCORRECT naming password), counts toward the lock, and deletes nothing', async () => {
      const refused = await removeAccount({ password: 'Not-The-Password1' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'PASSWORD_INCORRECT', fields: { password: 'incorrect' }, attemptsLeft: 4 });
      expect(await userCount(LUKAS.email)).toBe(1);
      expect((await find()).statusCode).toBe(200);
      for (let attempt = 2; attempt < SIGN_IN_LIMITS.passwordFailuresPerAccount; attempt += 1) await removeAccount({ password: 'Not-The-Password1' });
      expect((await removeAccount({ password: 'Not-The-Password1' })).statusCode).toBe(423);
      // Locked: even the right password deletes nothing until the lock ends.
      expect((await removeAccount({ password: LUKAS.password })).json()).toMatchObject({ error: 'USER_LOCKED' });
      expect(await userCount(LUKAS.email)).toBe(1);
    });

    it('the right password deletes the account', async () => {
      const removed = await removeAccount({ password: LUKAS.password });
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ status: 'DELETED' });
      expect(await userCount(LUKAS.email)).toBe(0);
    });

    it('an account with no usable password (SSO) proves itself with a passcode sent by send-code', async () => {
      const sso = await ssoSession('grace@example.com', 'eurobank');
      expect((await removeAccount({}, sso)).json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { passcode: 'required' } });
      expect((await sso.call({ method: 'POST', url: 'user-mgmt/user/send-code', json: { channel: 'email', purpose: 'otp-check' } })).statusCode).toBe(204);
      const code = await gateway.latestCode('grace@example.com');
      const wrongCode = code === '000000' ? '111111' : '000000';
      const refused = await removeAccount({ passcode: wrongCode }, sso);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'OTP_INVALID', fields: { passcode: 'incorrect' } });
      expect(await userCount('grace@example.com')).toBe(1);
      expect((await removeAccount({ passcode: code }, sso)).statusCode).toBe(200);
      expect(await userCount('grace@example.com')).toBe(0);
    });
  });
});
