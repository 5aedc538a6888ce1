import { afterAll, beforeAll, expect, it } from 'vitest';
import { activationTokenFor, ANA_PASSWORD, register, registrationBody, VISA_TEST_PAN } from '../support/account-requests';
import { describeEachDatabase } from '../support/database-legs';
import { capturingLogger } from '../support/capturing-logger';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { TestBrowser } from '../support/test-browser';

/**
 * ADR 0009 and DESIGN "nothing secret in logs": a whole account story (register with a card,
 * activate, recover, reset, change, delete) runs at trace level through a capturing logger; no
 * password, card number, activation token or passcode appears in any line.
 */
const PASSWORDS = [ANA_PASSWORD, 'Recovered#Pass2', 'Changed#Pass33', 'Wrong-Current#1'];

describeEachDatabase((leg) => {
  const { logger, lines } = capturingLogger();
  const secrets: string[] = [...PASSWORDS, VISA_TEST_PAN, VISA_TEST_PAN.replace(/ /g, '')];
  let gateway: SignInGateway;
  beforeAll(async () => {
    gateway = await openSignInGateway(leg, { logger });
    const browser = await new TestBrowser(gateway.app).open();
    await register(browser, registrationBody());
    const token = await activationTokenFor(gateway.outbox, 'ana@example.com');
    await register(browser, registrationBody());
    await browser.call({ method: 'POST', url: 'user-mgmt/user/activation-email', json: { email: 'ana@example.com', siteId: 'firstbank', locale: 'en_us' } });
    const resent = await activationTokenFor(gateway.outbox, 'ana@example.com');
    await browser.call({ method: 'POST', url: 'user-mgmt/user/activate-token', json: { token: resent, password: ANA_PASSWORD } });
    await browser.call({ method: 'POST', url: 'user-mgmt/user/send-passcode', json: { email: 'ana@example.com', siteId: 'firstbank', locale: 'en_us' } });
    const code = await gateway.latestCode('ana@example.com');
    await browser.call({ method: 'POST', url: 'user-mgmt/user/find-code', json: { email: 'ana@example.com', passcode: code } });
    await browser.call({
      method: 'POST',
      url: 'user-mgmt/user/change-password-from-passcode',
      json: { email: 'ana@example.com', passcode: code, password: 'Recovered#Pass2', confirm_password: 'Recovered#Pass2' },
    });
    await browser.login({ username: 'ana@example.com', password: 'Recovered#Pass2', siteId: 'eurobank' });
    await browser.call({
      method: 'POST',
      url: 'user-mgmt/user/change-password',
      json: { currentPassword: 'Wrong-Current#1', password: 'Changed#Pass33', confirm_password: 'Changed#Pass33' },
    });
    await browser.call({
      method: 'POST',
      url: 'user-mgmt/user/change-password',
      json: { currentPassword: 'Recovered#Pass2', password: 'Changed#Pass33', confirm_password: 'Changed#Pass33' },
    });
    await browser.call({ method: 'POST', url: 'user-mgmt/user/remove-account', json: { password: 'Changed#Pass33' } });
    secrets.push(token, resent, code, ...browser.cookies.values());
  });
  afterAll(() => gateway.dispose());

  it('logged the requests', () => {
    expect(lines.filter((line) => line.includes('"req"')).length).toBeGreaterThan(10);
  });

  it('never logged a password, card number, activation token or passcode', () => {
    const log = lines.join('\n');
    for (const secret of secrets.filter((value) => value.length >= 6)) expect(log).not.toContain(secret);
  });
});
