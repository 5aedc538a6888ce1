import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0009-account-lifecycle-api.md "Passwords" (SPEC §2 password, compromised-credentials;
 * §7 `change-password`, `vba/compromised-password`; issue 6 item 4): the current password checked,
 * the last 4 refused, listed passwords refused, other sessions revoked; a sign-in with a listed
 * password flagged `passwordCompromised`.
 */
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };
/** On the bundled list (fixtures/common-passwords) and passing every SPEC §5 rule. */
const LISTED_PASSWORD = 'P@ssw0rd';

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
    expect((await (await new TestBrowser(gateway.app, '198.51.100.31').open()).login({ username: LUKAS.email, password: 'Neues#Passwort1', siteId: 'eurobank' })).statusCode).toBe(200);
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
    const vba = await browser.call({ method: 'POST', url: 'user-mgmt/user/vba/compromised-password', json: { password: 'Neues#Passwort1', confirm_password: 'Neues#Passwort1' } });
    expect(vba.statusCode).toBe(401);
  });

  it('ADR 0009: a sign-in with a listed password succeeds with passwordCompromised: true (login and token calls); others carry no flag', async () => {
    await insertUser(gateway.test.db, { email: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'eurobank' });
    const login = await browser.login({ username: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'eurobank' });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
    const token = await browser.login({ username: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'eurobank' }, 'user-auth/oauth/token');
    expect(token.json()).toMatchObject({ status: 'SIGNED_IN', passwordCompromised: true });
    expect((await signIn(await new TestBrowser(gateway.app, '198.51.100.32').open())).json()).not.toHaveProperty('passwordCompromised');
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

  it.each(['user-mgmt/user/vba/compromised-password'])('ADR 0009 %s: sets a new password for the signed-in user, keeps the session, refuses listed ones, then closes', async (url) => {
    await insertUser(gateway.test.db, { email: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'eurobank' });
    await browser.login({ username: 'weak@example.com', password: LISTED_PASSWORD, siteId: 'eurobank' });
    const setPassword = (password: string) => browser.call({ method: 'POST', url, json: { password, confirm_password: password } });
    expect((await setPassword('1qaz!QAZ')).json()).toMatchObject({ error: 'PASSWORD_COMPROMISED' });
    const response = await setPassword('Much-Better#Pass9');
    expect(response.statusCode).toBe(200);
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(200);
    // Replaced: the call without the current password is closed again (change-password asks it).
    expect((await setPassword('Much-Better#Pass10')).json()).toMatchObject({ error: 'PASSWORD_CHANGE_NOT_REQUIRED' });
    const again = await (await new TestBrowser(gateway.app, '198.51.100.33').open()).login({ username: 'weak@example.com', password: 'Much-Better#Pass9', siteId: 'eurobank' });
    expect(again.json()).not.toHaveProperty('passwordCompromised');
  });
});
