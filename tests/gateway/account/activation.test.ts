import { afterEach, beforeEach, expect, it } from 'vitest';
import { activationTokenFor, ANA_PASSWORD, register, registrationBody } from '../support/account-requests';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, signInWithPasscode, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0009-account-lifecycle-api.md "Activation" (SPEC §2 activate, resend-activation;
 * expired and reused tokens refused): a single-use token valid 48 hours, that activates only with the
 * password chosen at registration, and a resend that answers the same for every address.
 */
const HOUR_SECONDS = 3600;

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    browser = await new TestBrowser(gateway.app).open();
    expect((await register(browser, registrationBody())).statusCode).toBe(202);
  });
  afterEach(() => gateway.dispose());

  const activate = (token: string, password = ANA_PASSWORD) =>
    browser.call({ method: 'POST', url: 'user-mgmt/user/activate-token', json: { token, password } });
  const statusOf = async (email: string) =>
    (await gateway.test.db.query<{ status: string }>('select status from users where email = $1', [email])).rows[0]?.status;
  const resend = (email: string) =>
    browser.call({ method: 'POST', url: 'user-mgmt/user/activation-email', json: { email, siteId: 'firstbank', locale: 'en_us' } });

  it('ADR 0009: the mailed token with the registration password activates once (200 ACTIVATED, user ACTIVE); opened again, the link says the account is already active (409 ALREADY_ACTIVE)', async () => {
    const token = await activationTokenFor(gateway.outbox, 'ana@example.com');
    const stored = await gateway.test.db.query<{ id: string }>('select id from activation_tokens');
    // Stored hashed: the table never holds the token itself.
    expect(stored.rows[0]!.id).not.toBe(token);
    expect(stored.rows[0]!.id).toMatch(/^[0-9a-f]{64}$/);
    const first = await activate(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'ACTIVATED' });
    expect(await statusOf('ana@example.com')).toBe('ACTIVE');
    const again = await activate(token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'ALREADY_ACTIVE', fields: { token: 'alreadyActive' } });
    // Said alike whatever password comes with it: the link alone is the proof, and it activates nothing more.
    expect((await activate(token, 'Someone-Elses#Pass9')).json()).toMatchObject({ error: 'ALREADY_ACTIVE' });
    // And the account signs in and passes the background check (SPEC §4).
    expect((await signInWithPasscode(gateway, browser, { username: 'ana@example.com', password: ANA_PASSWORD, siteId: 'firstbank' })).statusCode).toBe(200);
  });

  it('ADR 0009: a token past 48 hours (test clock) is TOKEN_EXPIRED and activates nothing', async () => {
    const token = await activationTokenFor(gateway.outbox, 'ana@example.com');
    gateway.clock.advance(48 * HOUR_SECONDS + 1);
    const response = await activate(token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'TOKEN_EXPIRED', fields: { token: 'expired' } });
    expect(await statusOf('ana@example.com')).toBe('INACTIVE');
  });

  it('a token just inside 48 hours still works', async () => {
    const token = await activationTokenFor(gateway.outbox, 'ana@example.com');
    gateway.clock.advance(48 * HOUR_SECONDS - 60);
    expect((await activate(token)).statusCode).toBe(200);
  });

  it.each([
    ['unknown', 'A'.repeat(43)],
    ['malformed', 'not a token'],
    ['empty', ''],
  ])('an %s token is 400 TOKEN_INVALID naming the token field, never a 500', async (_name, token) => {
    const response = await activate(token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'TOKEN_INVALID', fields: { token: 'invalid' } });
  });

  it('two racing uses of one token activate once', async () => {
    const token = await activationTokenFor(gateway.outbox, 'ana@example.com');
    const answers = await Promise.all([activate(token), activate(token)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  });

  it('ADR 0009 "Activation": the old body `{ token }` is 400 PASSWORD_REQUIRED naming password, and the link still works with the password', async () => {
    const token = await activationTokenFor(gateway.outbox, 'ana@example.com');
    for (const json of [{ token }, { token, password: '' }]) {
      const refused = await browser.call({ method: 'POST', url: 'user-mgmt/user/activate-token', json });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'PASSWORD_REQUIRED', fields: { password: 'required' } });
    }
    expect(await statusOf('ana@example.com')).toBe('INACTIVE');
    expect((await activate(token)).statusCode).toBe(200);
  });

  it('ADR 0009 "Activation": another password is 400 PASSWORD_INCORRECT naming password, counting down 5 attempts; the 5th spends the link, so even the right password is then TOKEN_INVALID', async () => {
    const token = await activationTokenFor(gateway.outbox, 'ana@example.com');
    for (let attemptsLeft = 4; attemptsLeft >= 0; attemptsLeft--) {
      const refused = await activate(token, 'Someone-Elses#Pass9');
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'PASSWORD_INCORRECT', fields: { password: 'incorrect' }, attemptsLeft });
      expect(refused.body).not.toContain(ANA_PASSWORD);
    }
    expect((await activate(token)).json()).toMatchObject({ error: 'TOKEN_INVALID', fields: { token: 'invalid' } });
    expect(await statusOf('ana@example.com')).toBe('INACTIVE');
    // A new link starts with 5 attempts again, and the right password activates.
    await resend('ana@example.com');
    const fresh = await activationTokenFor(gateway.outbox, 'ana@example.com');
    expect((await activate(fresh, 'Someone-Elses#Pass9')).json()).toMatchObject({ attemptsLeft: 4 });
    expect((await activate(fresh)).statusCode).toBe(200);
    expect(await statusOf('ana@example.com')).toBe('ACTIVE');
  });

  it('ADR 0009 "Activation": a wrong password counts; a right one after it still activates, once', async () => {
    const token = await activationTokenFor(gateway.outbox, 'ana@example.com');
    expect((await activate(token, 'rewards#2025x')).json()).toMatchObject({ error: 'PASSWORD_INCORRECT', attemptsLeft: 4 });
    expect((await activate(token)).json()).toEqual({ status: 'ACTIVATED' });
    expect((await activate(token)).json()).toMatchObject({ error: 'ALREADY_ACTIVE' });
  });

  it.each([
    ['a number as password', { password: 12345678 }, 'password'],
    ['a password longer than 256 characters', { password: 'A#1a'.repeat(65) }, 'password'],
    ['an object as token', { token: { value: 'x' }, password: ANA_PASSWORD }, 'token'],
    ['no token', { token: undefined, password: ANA_PASSWORD }, 'token'],
  ])('%s is a 400 naming the field, never a 500', async (_name, extra, field) => {
    const token = await activationTokenFor(gateway.outbox, 'ana@example.com');
    const response = await browser.call({ method: 'POST', url: 'user-mgmt/user/activate-token', json: { token, ...extra } });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields ?? {})).toContain(field);
    expect(await statusOf('ana@example.com')).toBe('INACTIVE');
  });

  it('ADR 0009 resend: unknown, active and inactive addresses all get the identical 202; only the inactive one a new link, and the old link stops working', async () => {
    await insertUser(gateway.test.db, { email: 'active@example.com', password: 'Active#Pass1', siteId: 'firstbank' });
    const oldToken = await activationTokenFor(gateway.outbox, 'ana@example.com');
    const answers = [await resend('nobody@example.com'), await resend('active@example.com'), await resend('Ana@Example.com')];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(202);
      expect(answer.body).toBe(JSON.stringify({ status: 'CHECK_EMAIL' }));
    }
    expect(await gateway.outbox.messagesTo('nobody@example.com')).toEqual([]);
    expect(await gateway.outbox.messagesTo('active@example.com')).toEqual([]);
    const newToken = await activationTokenFor(gateway.outbox, 'ana@example.com');
    expect(newToken).not.toBe(oldToken);
    expect((await activate(oldToken)).json()).toMatchObject({ error: 'TOKEN_INVALID' });
    expect((await activate(newToken)).statusCode).toBe(200);
  });

  it('resend refuses an unknown site or a missing field with 400, never a 500', async () => {
    const response = await browser.call({
      method: 'POST',
      url: 'user-mgmt/user/activation-email',
      json: { email: 'ana@example.com', siteId: 'nosuchbank', locale: 'en_us' },
    });
    expect(response.statusCode).toBe(400);
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/activation-email', json: { email: 'ana@example.com' } })).statusCode).toBe(400);
  });

  it('README "Sign-in limits": the 6th account mail to one address in 15 minutes is 429, whether or not it has an account', async () => {
    for (const email of ['ana@example.com', 'nobody@example.com']) {
      // The registration already counted one mail for ana.
      const sent = email === 'ana@example.com' ? 1 : 0;
      for (let call = sent; call < 5; call++) expect((await resend(email)).statusCode).toBe(202);
      const limited = await resend(email);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ error: 'RATE_LIMITED' });
    }
  });
});
