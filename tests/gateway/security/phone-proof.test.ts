import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0025-fresh-proof.md "A new phone is proved before it counts", ADR 0017 "someone holding the
 * session for a minute": a new phone becomes a sign-in or recovery channel only once the code texted to it comes
 * back; until then every passcode still goes to the phone the holder had. bancosol texts its sign-in codes
 * (`login_otp` sms) and offers recovery by SMS (`send_sms` "true").
 */
const MATEO = { email: 'mateo@example.com', password: 'Recompensas@2025', siteId: 'bancosol', phone: '11987654321' };
const NEW_PHONE = '11912345678';
const LATER_PHONE = '21955554444';

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    await insertUser(gateway.test.db, MATEO);
    browser = await new TestBrowser(gateway.app, '198.51.100.20').open();
    // A sign-in just made by text is the fresh proof a new phone needs (ADR 0025).
    expect((await browser.login({ username: MATEO.email, password: MATEO.password, siteId: 'bancosol' })).json()).toMatchObject({
      error: 'OTP_REQUIRED_PHONE',
    });
    const signedIn = await browser.login({
      username: MATEO.email,
      password: MATEO.password,
      siteId: 'bancosol',
      otp: await gateway.latestCode(MATEO.phone),
      otp_type: 'sms',
    });
    expect(signedIn.statusCode).toBe(200);
  });
  afterEach(() => gateway.dispose());

  const savePhone = (phone: string) => browser.call({ method: 'POST', url: 'user-attribute/v2/user/bancosol', json: { attributes: { phone } } });
  const proofState = async () => (await browser.call({ method: 'GET', url: 'user-mgmt/user/phone-proof' })).json<{ pendingPhone: string | null }>();
  const prove = (passcode: string) => browser.call({ method: 'POST', url: 'user-mgmt/user/phone-proof', json: { passcode } });
  const textsTo = async (phone: string) => (await gateway.outbox.messagesTo(phone)).length;

  /** A sign-in from another device, up to the texted code: where did the code go? */
  async function signInCodeGoesTo(): Promise<string> {
    const other = await new TestBrowser(gateway.app, '198.51.100.21').open();
    const asked = await other.login({ username: MATEO.email, password: MATEO.password, siteId: 'bancosol' });
    expect(asked.json()).toMatchObject({ error: 'OTP_REQUIRED_PHONE' });
    return asked.json<{ maskedDestination: string }>().maskedDestination;
  }

  it('a new phone counts for nothing until its code comes back: sign-in and recovery codes still go to the old one', async () => {
    expect((await savePhone(NEW_PHONE)).statusCode).toBe(200);
    // The profile shows the new number; the code that would make it count went to it, and nothing else did.
    expect(await proofState()).toEqual({ pendingPhone: '*** *** 5678' });
    const [proofText] = await gateway.outbox.messagesTo(NEW_PHONE);
    expect(proofText?.text).toMatch(/^Banco Sol Recompensas: your code to confirm this phone number is \d{6}\./);

    const textsToOld = await textsTo(MATEO.phone);
    expect(await signInCodeGoesTo()).toBe('*** *** 4321');
    expect(await textsTo(MATEO.phone)).toBe(textsToOld + 1);
    const anyone = await new TestBrowser(gateway.app, '203.0.113.40').open();
    const reset = await anyone.call({
      method: 'POST',
      url: 'user-mgmt/user/send-passcode',
      json: { email: MATEO.email, siteId: 'bancosol', locale: 'pt_br', channel: 'sms' },
    });
    expect(reset.statusCode).toBeLessThan(300);
    expect(await textsTo(MATEO.phone)).toBe(textsToOld + 2);
    // Only the proof code ever reached the new number.
    expect(await textsTo(NEW_PHONE)).toBe(1);

    // The proof code is no sign-in code, and a wrong code counts down.
    const proofCode = await gateway.latestCode(NEW_PHONE);
    const wrong = await prove(proofCode === '000000' ? '111111' : '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'PASSCODE_INVALID', attemptsLeft: 4, fields: { passcode: 'invalid' } });

    const proved = await prove(proofCode);
    expect(proved.statusCode).toBe(200);
    expect(proved.json()).toEqual({ pendingPhone: null });
    expect(await proofState()).toEqual({ pendingPhone: null });
    expect(await signInCodeGoesTo()).toBe('*** *** 5678');
    // Spent: the same code proves nothing again.
    expect((await prove(proofCode)).json()).toMatchObject({ error: 'PHONE_NOT_PENDING' });
  });

  it('a password reset waits 7 days before it goes to a newly proved phone: until then it is e-mailed, with the same answer', async () => {
    expect((await savePhone(NEW_PHONE)).statusCode).toBe(200);
    expect((await prove(await gateway.latestCode(NEW_PHONE))).statusCode).toBe(200);
    const anyone = await new TestBrowser(gateway.app, '203.0.113.41').open();
    const askReset = () =>
      anyone.call({ method: 'POST', url: 'user-mgmt/user/send-passcode', json: { email: MATEO.email, siteId: 'bancosol', locale: 'pt_br', channel: 'sms' } });
    const mailed = (await gateway.outbox.messagesTo(MATEO.email)).length;
    const early = await askReset();
    expect(early.statusCode).toBeLessThan(300);
    expect(await textsTo(NEW_PHONE)).toBe(1);
    expect(await gateway.outbox.messagesTo(MATEO.email)).toHaveLength(mailed + 1);
    // The sign-in, which also asks the password, texts the proved phone at once.
    expect(await signInCodeGoesTo()).toBe('*** *** 5678');

    gateway.clock.advance(7 * 24 * 60 * 60 + 60);
    const later = await askReset();
    expect(later.statusCode).toBe(early.statusCode);
    expect(later.body).toBe(early.body);
    expect(await textsTo(NEW_PHONE)).toBe(3);
    expect(await gateway.outbox.messagesTo(MATEO.email)).toHaveLength(mailed + 1);
  });

  it('"this wasn\'t me" from the old phone puts it back: the profile shows it, and sign-in codes go to it again', async () => {
    // Someone holding the session within the owner's 10 minutes proves a phone of their own.
    expect((await savePhone(NEW_PHONE)).statusCode).toBe(200);
    expect((await prove(await gateway.latestCode(NEW_PHONE))).statusCode).toBe(200);
    expect((await savePhone(LATER_PHONE)).statusCode).toBe(200);
    expect((await prove(await gateway.latestCode(LATER_PHONE))).statusCode).toBe(200);
    expect(await signInCodeGoesTo()).toBe('*** *** 4444');

    // The owner follows the link texted to the phone they had, the first notice.
    const token = (await gateway.outbox.messagesTo(MATEO.phone))
      .map((message) => /secure-account\?token=([A-Za-z0-9_-]{43})/.exec(message.text)?.[1])
      .filter((found) => found !== undefined)
      .at(-1);
    expect(token).toBeDefined();
    const owner = await new TestBrowser(gateway.app, '198.51.100.50').open();
    const secured = await owner.call({ method: 'POST', url: 'user-mgmt/user/secure-account', json: { token } });
    expect(secured.statusCode).toBe(200);
    expect(secured.json()).toEqual({ status: 'ACCOUNT_SECURED', email: null, undone: ['phone'] });
    expect(await signInCodeGoesTo()).toBe('*** *** 4321');
    const stored = await gateway.test.db.query<{ phone: string }>(`select attributes->>'phone' as phone from user_sites where site_id = 'bancosol'`);
    expect(stored.rows[0]?.phone).toBe(MATEO.phone);
    // The session that changed it is over.
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/phone-proof' })).statusCode).toBe(401);
  });

  it('a code texted to an earlier new number never proves a later one', async () => {
    expect((await savePhone(NEW_PHONE)).statusCode).toBe(200);
    const earlier = await gateway.latestCode(NEW_PHONE);
    expect((await savePhone(LATER_PHONE)).statusCode).toBe(200);
    expect(await proofState()).toEqual({ pendingPhone: '*** *** 4444' });
    const later = await gateway.latestCode(LATER_PHONE);
    if (earlier !== later) expect((await prove(earlier)).json()).toMatchObject({ error: 'PASSCODE_INVALID' });
    expect((await prove(later)).statusCode).toBe(200);
    expect(await signInCodeGoesTo()).toBe('*** *** 4444');
  });

  it('five wrong codes spend it; a new one is texted on request, and the old one no longer works', async () => {
    expect((await savePhone(NEW_PHONE)).statusCode).toBe(200);
    const first = await gateway.latestCode(NEW_PHONE);
    const wrong = first === '999999' ? '888888' : '999999';
    for (let attempt = 4; attempt >= 0; attempt -= 1) expect((await prove(wrong)).json()).toMatchObject({ attemptsLeft: attempt });
    expect((await prove(first)).json()).toMatchObject({ error: 'PASSCODE_INVALID', attemptsLeft: 0 });

    const resent = await browser.call({ method: 'POST', url: 'user-mgmt/user/phone-proof/resend' });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ pendingPhone: '*** *** 5678' });
    expect(await textsTo(NEW_PHONE)).toBe(2);
    const second = await gateway.latestCode(NEW_PHONE);
    expect((await prove(second)).statusCode).toBe(200);
    expect(await signInCodeGoesTo()).toBe('*** *** 5678');
  });

  it('typing the proved number back ends the wait', async () => {
    expect((await savePhone(NEW_PHONE)).statusCode).toBe(200);
    expect((await savePhone(MATEO.phone)).statusCode).toBe(200);
    expect(await proofState()).toEqual({ pendingPhone: null });
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/phone-proof/resend' })).json()).toMatchObject({ error: 'PHONE_NOT_PENDING' });
    expect((await prove(await gateway.latestCode(NEW_PHONE))).json()).toMatchObject({ error: 'PHONE_NOT_PENDING' });
    expect(await signInCodeGoesTo()).toBe('*** *** 4321');
  });

  describe('what the request cannot choose', () => {
    it('the number waiting is the session site’s: another site named in the request is refused, and a holder of another site sees none', async () => {
      expect((await savePhone(NEW_PHONE)).statusCode).toBe(200);
      const crossing = await browser.call({ method: 'GET', url: 'user-mgmt/user/phone-proof?siteId=sabana' });
      expect(crossing.statusCode).toBe(403);
      const other = { email: 'valentina@example.com', password: 'Recompensas@2025', siteId: 'eurobank' };
      await insertUser(gateway.test.db, other);
      const stranger = await new TestBrowser(gateway.app, '198.51.100.30').open();
      expect((await stranger.login({ username: other.email, password: other.password, siteId: 'eurobank' })).statusCode).toBe(200);
      expect((await stranger.call({ method: 'GET', url: 'user-mgmt/user/phone-proof' })).json()).toEqual({ pendingPhone: null });
      const code = await gateway.latestCode(NEW_PHONE);
      expect((await stranger.call({ method: 'POST', url: 'user-mgmt/user/phone-proof', json: { passcode: code } })).json()).toMatchObject({
        error: 'PHONE_NOT_PENDING',
      });
      expect(await proofState()).toEqual({ pendingPhone: '*** *** 5678' });
    });

    it('bad input gets a clear error naming the field, never a 500', async () => {
      for (const body of [{}, { passcode: '12345' }, { passcode: '١٢٣٤٥٦' }, { passcode: '12345\u0000' }, { passcode: '123456', extra: 1 }]) {
        const refused = await browser.call({ method: 'POST', url: 'user-mgmt/user/phone-proof', json: body });
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ error: 'VALIDATION_FAILED' });
      }
    });
  });
});
