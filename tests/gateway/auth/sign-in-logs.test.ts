import { afterAll, beforeAll, expect, it } from 'vitest';
import { totpCode, totpStepAt } from '../../../gateway/auth/totp';
import { describeEachDatabase } from '../support/database-legs';
import { capturingLogger } from '../support/capturing-logger';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * No password, passcode, TOTP secret or token appears in any log line. A whole
 * sign-in story runs at trace level through a capturing logger; every secret it used is then
 * looked for in the captured lines.
 */
const EMILY = { email: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank', phone: '2025550143' };

describeEachDatabase((leg) => {
  const { logger, lines } = capturingLogger();
  const secrets: string[] = [EMILY.password, 'Wrong-Password-77'];
  let gateway: SignInGateway;
  beforeAll(async () => {
    gateway = await openSignInGateway(leg, { logger });
    await insertUser(gateway.test.db, EMILY);
    const browser = await new TestBrowser(gateway.app).open();
    const login = (extra: Record<string, string> = {}, url?: string) =>
      browser.login({ username: EMILY.email, password: EMILY.password, siteId: 'firstbank', ...extra }, url);

    await browser.login({ username: EMILY.email, password: 'Wrong-Password-77', siteId: 'firstbank' });
    await login();
    const loginCode = await gateway.latestCode(EMILY.email);
    const signedIn = (await login({ otp: loginCode, otp_type: 'email', trust_device: 'true' }, 'user-auth/oauth/token')).json<{
      access_token: string;
      refresh_token: string;
    }>();
    const setup = (await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' })).json<{ secret: string }>();
    await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code: totpCode(setup.secret, totpStepAt(gateway.clock.now())) } });
    await browser.call({ method: 'POST', url: 'user-mgmt/user/send-code', json: { channel: 'email', purpose: 'otp-check' } });
    const checkCode = await gateway.latestCode(EMILY.email);
    await browser.call({ method: 'POST', url: 'user-auth/otp/verify', json: { otp: checkCode, otp_type: 'email' } });
    const rotated = (
      await browser.call({ method: 'POST', url: 'user-auth/oauth/token', form: { grant_type: 'refresh_token', refresh_token: signedIn.refresh_token } })
    ).json<{ refresh_token: string }>();
    await browser.call({ method: 'POST', url: `user-auth/tokens/revoke?refresh_token=${rotated.refresh_token}` });
    await browser.call({ method: 'POST', url: 'user-auth/oauth/token', form: { grant_type: 'refresh_token', refresh_token: signedIn.refresh_token } });
    secrets.push(loginCode, checkCode, setup.secret, signedIn.access_token, signedIn.refresh_token, rotated.refresh_token, ...browser.cookies.values());
  });
  afterAll(() => gateway.dispose());

  it('logged the requests', () => {
    expect(lines.filter((line) => line.includes('"req"')).length).toBeGreaterThan(10);
  });

  it('never logged a password, passcode, TOTP secret, token or cookie value', () => {
    const log = lines.join('\n');
    for (const secret of secrets.filter((value) => value.length >= 6)) expect(log).not.toContain(secret);
  });
});
