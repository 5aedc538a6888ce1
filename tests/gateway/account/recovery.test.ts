import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, signInWithPasscode, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0009-account-lifecycle-api.md "Recovery" (SPEC §2 recovery variants, §7
 * `send-passcode`, `find-code`, `change-password-from-passcode`): recovery codes,
 * the same answers for known and unknown addresses, the last-4 rule, and sign-out everywhere.
 */
const EMILY = { email: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank', phone: '2025550143' };
const NEW_PASSWORD = 'Brand-New#Pass7';

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    await insertUser(gateway.test.db, EMILY);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  const sendPasscode = (email: string, channel?: 'email' | 'sms') =>
    browser.call({
      method: 'POST',
      url: 'user-mgmt/user/send-passcode',
      json: { email, siteId: 'firstbank', locale: 'en_us', ...(channel ? { channel } : {}) },
    });
  const findCode = (email: string, passcode: string) => browser.call({ method: 'POST', url: 'user-mgmt/user/find-code', json: { email, passcode } });
  const reset = (email: string, passcode: string, password = NEW_PASSWORD, confirm = password) =>
    browser.call({ method: 'POST', url: 'user-mgmt/user/change-password-from-passcode', json: { email, passcode, password, confirm_password: confirm } });
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('ADR 0009: known and unknown addresses get the identical 202; only the known one a 6-digit code by e-mail', async () => {
    const known = await sendPasscode(EMILY.email);
    const unknown = await sendPasscode('nobody@example.com');
    expect(known.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ status: 'CHECK_EMAIL' });
    expect(await gateway.latestCode(EMILY.email)).toMatch(/^\d{6}$/);
    expect(await gateway.outbox.messagesTo('nobody@example.com')).toEqual([]);
    const codes = await gateway.test.db.query<{ purpose: string; channel: string }>('select purpose, channel from one_time_codes');
    expect(codes.rows).toEqual([{ purpose: 'recovery', channel: 'email' }]);
  });

  it('ADR 0009: by SMS only when asked and a phone exists, on a site whose recovery offers SMS (tejobank send_sms "true")', async () => {
    const onTejobank = (email: string) =>
      browser.call({ method: 'POST', url: 'user-mgmt/user/send-passcode', json: { email, siteId: 'tejobank', locale: 'en_us', channel: 'sms' } });
    expect((await onTejobank(EMILY.email)).statusCode).toBe(202);
    expect(await gateway.latestCode(EMILY.phone)).toMatch(/^\d{6}$/);
    await insertUser(gateway.test.db, { email: 'nophone@example.com', password: 'Firstbank#2025', siteId: 'firstbank' });
    expect((await onTejobank('nophone@example.com')).statusCode).toBe(202);
    expect(await gateway.latestCode('nophone@example.com')).toMatch(/^\d{6}$/);
  });

  it('ADR 0025: the channel comes from the site: SMS on a site whose recovery offers none (firstbank) is a 400 naming the field, and nothing is sent', async () => {
    const refused = await sendPasscode(EMILY.email, 'sms');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { channel: 'notOffered' } });
    // Told from the site alone: an unknown address gets the very same answer.
    expect((await sendPasscode('nobody@example.com', 'sms')).body).toBe(refused.body);
    expect((await gateway.test.db.query('select 1 from one_time_codes')).rows).toEqual([]);
    expect(await gateway.outbox.messagesTo(EMILY.phone)).toEqual([]);
  });

  it('find-code: a right code is CODE_OK and stays usable for the reset; wrong codes count down attemptsLeft', async () => {
    await sendPasscode(EMILY.email);
    const code = await gateway.latestCode(EMILY.email);
    const wrong = await findCode(EMILY.email, wrongCode(code));
    expect(wrong.statusCode).toBe(400);
    // The 400 names the field at fault (SPEC §8; ADR 0017: a 400 naming the field, never a 500).
    expect(wrong.json()).toMatchObject({ error: 'PASSCODE_INVALID', fields: { passcode: 'invalid' }, attemptsLeft: 4 });
    expect((await findCode(EMILY.email, wrongCode(code))).json()).toMatchObject({ attemptsLeft: 3 });
    const right = await findCode(EMILY.email, code);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ status: 'CODE_OK' });
    expect((await reset(EMILY.email, code)).statusCode).toBe(200);
  });

  it('find-code: after 5 wrong attempts even the right code is refused as spent (ADR 0008 OTP_SPENT, as at sign-in), with when a new code will work', async () => {
    await sendPasscode(EMILY.email);
    const code = await gateway.latestCode(EMILY.email);
    for (let attempt = 4; attempt >= 0; attempt--) expect((await findCode(EMILY.email, wrongCode(code))).json()).toMatchObject({ attemptsLeft: attempt });
    gateway.clock.advance(60);
    const spent = await findCode(EMILY.email, code);
    expect(spent.statusCode).toBe(401);
    expect(spent.json()).toMatchObject({ error: 'OTP_SPENT', attemptsLeft: 0 });
    expect(spent.headers['retry-after']).toBe('540');
    const resetting = await reset(EMILY.email, code);
    expect(resetting.statusCode).toBe(401);
    expect(resetting.json()).toMatchObject({ error: 'OTP_SPENT', attemptsLeft: 0 });
  });

  it('ADR 0009: find-code answers an unknown address exactly like a known one, attempts included', async () => {
    await sendPasscode(EMILY.email);
    await sendPasscode('nobody@example.com');
    const code = await gateway.latestCode(EMILY.email);
    for (let attempt = 0; attempt < 6; attempt++) {
      const known = await findCode(EMILY.email, wrongCode(code));
      const unknown = await findCode('nobody@example.com', wrongCode(code));
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      expect(unknown.headers['retry-after']).toBe(known.headers['retry-after']);
    }
    // Nobody asked for a code: the same answers too.
    await insertUser(gateway.test.db, { email: 'quiet@example.com', password: 'Firstbank#2025', siteId: 'firstbank' });
    expect((await findCode('quiet@example.com', '123456')).body).toBe((await findCode('nobody2@example.com', '123456')).body);
  });

  it('a code expires after 10 minutes (test clock)', async () => {
    await sendPasscode(EMILY.email);
    const code = await gateway.latestCode(EMILY.email);
    gateway.clock.advance(10 * 60 + 1);
    expect((await reset(EMILY.email, code)).json()).toMatchObject({ error: 'PASSCODE_INVALID' });
  });

  it('ADR 0009: a reset sets the password, spends the code and revokes every session', async () => {
    const signedIn = await new TestBrowser(gateway.app, '198.51.100.20').open();
    expect((await signInWithPasscode(gateway, signedIn, { username: EMILY.email, password: EMILY.password, siteId: 'firstbank' })).statusCode).toBe(200);
    await sendPasscode(EMILY.email);
    const code = await gateway.latestCode(EMILY.email);
    const response = await reset(EMILY.email, code);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'PASSWORD_CHANGED' });
    // The session elsewhere is told why it ended, so its sign-in page can say so rather than sign it out silently.
    const ended = await signedIn.call({ method: 'GET', url: 'user-mgmt/user/find' });
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toMatchObject({ error: 'UNAUTHENTICATED', sessionEnded: 'password_changed' });
    expect((await reset(EMILY.email, code, 'Another#Pass88')).json()).toMatchObject({ error: 'PASSCODE_INVALID', fields: { passcode: 'invalid' } });
    expect((await signInWithPasscode(gateway, browser, { username: EMILY.email, password: NEW_PASSWORD, siteId: 'firstbank' })).statusCode).toBe(200);
    // A session signed out by its holder says nothing of the kind.
    await browser.call({ method: 'POST', url: 'user-auth/tokens/revoke' });
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).json()).not.toHaveProperty('sessionEnded');
  });

  it('ADR 0009 PASSWORD_REUSED: each of the last 4 passwords is refused, the 5th-last is allowed, and a refusal keeps the code', async () => {
    const passwords = ['Second#Pass22', 'Third#Pass333', 'Fourth#Pass44'];
    for (const password of passwords) {
      await sendPasscode(EMILY.email);
      expect((await reset(EMILY.email, await gateway.latestCode(EMILY.email), password)).statusCode).toBe(200);
    }
    // The current one and the three before it; the seeded first password is the 4th-last.
    await sendPasscode(EMILY.email);
    const code = await gateway.latestCode(EMILY.email);
    for (const password of [...passwords, EMILY.password]) {
      const response = await reset(EMILY.email, code, password);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'PASSWORD_REUSED' });
    }
    expect((await reset(EMILY.email, code, 'Fifth#Pass555')).statusCode).toBe(200);
    await sendPasscode(EMILY.email);
    // The seeded password is now 5th-last: allowed again.
    expect((await reset(EMILY.email, await gateway.latestCode(EMILY.email), EMILY.password)).statusCode).toBe(200);
  });

  it('ADR 0009 PASSWORD_COMPROMISED: a listed password is refused at reset', async () => {
    await sendPasscode(EMILY.email);
    const response = await reset(EMILY.email, await gateway.latestCode(EMILY.email), 'P@ssw0rd');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'PASSWORD_COMPROMISED' });
  });

  it('VALIDATION_FAILED names the password fields (SPEC §5 keys)', async () => {
    await sendPasscode(EMILY.email);
    const response = await reset(EMILY.email, await gateway.latestCode(EMILY.email), 'short', 'other');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { password: 'passwordRulesError', confirm_password: 'mustMatch' } });
  });

  // Schema refusals answer the shared form check's keys (SPEC §5, §8 "Form error keys").
  it.each([
    ['over its 16-character limit', 'tooLong', '12345678901234567'],
    ['empty', 'required', ''],
    ['not a text', 'invalid', { code: 1 }],
  ])('a find-code passcode %s is a 400 naming it %s', async (_name, key, passcode) => {
    const response = await browser.call({ method: 'POST', url: 'user-mgmt/user/find-code', json: { email: EMILY.email, passcode } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { passcode: key } });
  });

  it.each([
    ['no e-mail', 'user-mgmt/user/send-passcode', { siteId: 'firstbank', locale: 'en_us' }],
    ['a bad channel', 'user-mgmt/user/send-passcode', { email: 'a@example.com', siteId: 'firstbank', locale: 'en_us', channel: 'pigeon' }],
    ['a passcode that is a number', 'user-mgmt/user/find-code', { email: 'a@example.com', passcode: { code: 1 } }],
    ['no password', 'user-mgmt/user/change-password-from-passcode', { email: 'a@example.com', passcode: '123456' }],
  ])('%s is a 400, never a 500', async (_name, url, json) => {
    expect((await browser.call({ method: 'POST', url, json })).statusCode).toBe(400);
  });
});
