import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activationTokenFor, register } from '../support/account-requests';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0009-account-lifecycle-api.md "Activation", ADR 0017 (anonymous registering someone else's
 * address): an outside review's finding, each step through the real gateway. On a site that asks no passcode
 * at sign-in (eurobank), someone registers the victim's address with their own password; the victim gets the
 * activation mail and opens it. Activation used to prove the mailbox only, so the account opened with the
 * registrant's password and the registrant signed in to an active account carrying the victim's address.
 * Now the link activates only with the password chosen at registration, the victim's way in is a password
 * reset (which proves the mailbox, activates the account afresh and ends everything the registrant held), a
 * second registration of the address replaces the unproved one, and none of it tells anyone which addresses
 * have accounts.
 */
const VICTIM = 'victim@example.com';
const VICTIM_PASSWORD = 'Victims-Own#Pass4';
const SQUATTER_PASSWORD = 'Squatters#Pass77';
const SQUATTER_PHONE = '030 98765432';

/** A registration eurobank's own form accepts (SPEC §5: bin of 8 digits starting with 4, a German phone). */
function eurobankRegistration(email: string, password: string, firstName: string): Record<string, unknown> {
  return {
    siteId: 'eurobank',
    locale: 'de_de',
    user: { first_name: firstName, last_name: 'Example', email, password, confirm_password: password, bin: '41111111', phone: SQUATTER_PHONE },
  };
}

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let squatter: TestBrowser;
  let victim: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    squatter = await new TestBrowser(gateway.app, '203.0.113.66').open();
    victim = await new TestBrowser(gateway.app, '198.51.100.23').open();
  });
  afterEach(() => gateway.dispose());

  const accountOf = async (email: string) =>
    (
      await gateway.test.db.query<{ id: string; status: string; first_name: string | null }>('select id, status, first_name from users where email = $1', [
        email,
      ])
    ).rows;
  const signIn = (browser: TestBrowser, password: string, siteId = 'eurobank') => browser.login({ username: VICTIM, password, siteId, locale: 'de_de' });
  const background = (browser: TestBrowser, siteId = 'eurobank') => browser.call({ method: 'GET', url: `user-attribute/user/background/${siteId}` });
  const activate = (browser: TestBrowser, json: Record<string, unknown>) => browser.call({ method: 'POST', url: 'user-mgmt/user/activate-token', json });
  const sendPasscode = (browser: TestBrowser, siteId = 'eurobank', channel?: 'sms') =>
    browser.call({ method: 'POST', url: 'user-mgmt/user/send-passcode', json: { email: VICTIM, siteId, locale: 'de_de', ...(channel ? { channel } : {}) } });
  const resetPassword = (browser: TestBrowser, passcode: string, password: string) =>
    browser.call({
      method: 'POST',
      url: 'user-mgmt/user/change-password-from-passcode',
      json: { email: VICTIM, passcode, password, confirm_password: password },
    });

  /** The victim's way in: "forgot password" on eurobank, the code from their own mailbox, their own password. */
  async function victimResets(): Promise<void> {
    expect((await sendPasscode(victim)).statusCode).toBe(202);
    const reset = await resetPassword(victim, await gateway.latestCode(VICTIM), VICTIM_PASSWORD);
    expect(reset.statusCode, reset.body).toBe(200);
  }

  describe('the finding: the victim opens the activation mail of a registration they never made', () => {
    it("the mailed link does not open the account without the registrant's password, so the registrant never signs in to an active account", async () => {
      expect((await register(squatter, eurobankRegistration(VICTIM, SQUATTER_PASSWORD, 'Mallory'))).statusCode).toBe(202);
      const token = await activationTokenFor(gateway.outbox, VICTIM);

      // The victim clicks the link. The old call, the token alone, no longer activates anything.
      const tokenAlone = await activate(victim, { token });
      expect(tokenAlone.statusCode).toBe(400);
      expect(tokenAlone.json()).toMatchObject({ error: 'PASSWORD_REQUIRED', fields: { password: 'required' } });
      // The page asks for the password chosen at registration; the victim does not know it.
      const guessed = await activate(victim, { token, password: VICTIM_PASSWORD });
      expect(guessed.statusCode).toBe(400);
      expect(guessed.json()).toMatchObject({ error: 'PASSWORD_INCORRECT', fields: { password: 'incorrect' }, attemptsLeft: 4 });
      expect((await accountOf(VICTIM))[0]?.status).toBe('INACTIVE');

      // The registrant's password opens no active account: SPEC §4 lets an inactive account sign in, and the
      // background check says it is not active.
      expect((await signIn(squatter, SQUATTER_PASSWORD)).statusCode).toBe(200);
      expect((await background(squatter)).json()).toEqual({ passesBackgroundCheck: false });
    });

    it("the victim's own way in: forgot password → their code → their password; the account is active, afresh, theirs, and the registrant's hold ends", async () => {
      expect((await register(squatter, eurobankRegistration(VICTIM, SQUATTER_PASSWORD, 'Mallory'))).statusCode).toBe(202);
      const [registered] = await accountOf(VICTIM);
      // While nobody has activated it, the registrant signs in (SPEC §4 LOGGEDIN-INACTIVE) and keeps that session.
      const signedIn = await signIn(squatter, SQUATTER_PASSWORD);
      expect(signedIn.statusCode).toBe(200);
      const squattersRefreshToken = (
        await squatter.call({
          method: 'POST',
          url: 'user-auth/oauth/token',
          form: { grant_type: 'password', username: VICTIM, password: SQUATTER_PASSWORD, siteId: 'eurobank', locale: 'de_de' },
        })
      ).json().refresh_token as string;
      expect(squattersRefreshToken).toBeTruthy();
      const token = await activationTokenFor(gateway.outbox, VICTIM);

      await victimResets();

      const [account] = await accountOf(VICTIM);
      expect(account).toMatchObject({ status: 'ACTIVE', first_name: null });
      // A fresh account: a new id that no old session, refresh token or cookie names.
      expect(account!.id).not.toBe(registered!.id);
      expect((await gateway.test.db.query('select 1 from users where id = $1', [registered!.id])).rows).toEqual([]);
      // Nothing the registrant typed is kept: no profile with their name, bin or phone, no cards, no old password.
      expect((await gateway.test.db.query('select 1 from user_sites where user_id = $1', [account!.id])).rows).toEqual([]);
      expect((await gateway.test.db.query('select 1 from assets where user_id = $1', [account!.id])).rows).toEqual([]);
      expect((await gateway.test.db.query('select 1 from password_history where user_id = $1', [account!.id])).rows).toHaveLength(1);

      // The registrant's session, refresh token, password and activation link are all gone.
      expect((await background(squatter)).statusCode).toBe(401);
      const refreshed = await squatter.call({
        method: 'POST',
        url: 'user-auth/oauth/token',
        form: { grant_type: 'refresh_token', refresh_token: squattersRefreshToken, siteId: 'eurobank' },
      });
      expect(refreshed.statusCode).toBe(401);
      const squattersSignIn = await signIn(squatter, SQUATTER_PASSWORD);
      expect(squattersSignIn.statusCode).toBe(401);
      expect(squattersSignIn.json()).toMatchObject({ error: 'BAD_CREDENTIALS' });
      expect((await activate(squatter, { token, password: SQUATTER_PASSWORD })).json()).toMatchObject({ error: 'TOKEN_INVALID' });

      // The victim signs in with their own password; their first call creates their own profile (SPEC §4
      // USER_NOT_FOUND → the site locale saved → checked again) and the account passes the background check.
      expect((await signIn(victim, VICTIM_PASSWORD)).statusCode).toBe(200);
      expect((await background(victim)).json()).toMatchObject({ error: 'USER_NOT_FOUND' });
      expect((await victim.call({ method: 'POST', url: 'user-attribute/v2/user/eurobank', json: { attributes: { locale: 'de_de' } } })).statusCode).toBe(200);
      expect((await background(victim)).json()).toEqual({ passesBackgroundCheck: true });
      const profile = (await victim.call({ method: 'GET', url: 'user-attribute/user/eurobank' })).json().userSites.eurobank.attributes as Record<
        string,
        unknown
      >;
      expect(profile).not.toHaveProperty('phone');
      expect(profile).not.toHaveProperty('bin');
      expect(JSON.stringify(profile)).not.toContain('Mallory');
    });

    it("a reset of an account nobody activated sends its code to the mailbox only, never to the phone the registrant typed (tejobank's recovery offers SMS)", async () => {
      await insertUser(gateway.test.db, { email: VICTIM, password: SQUATTER_PASSWORD, siteId: 'tejobank', status: 'INACTIVE', phone: '2025550199' });
      expect((await sendPasscode(squatter, 'tejobank', 'sms')).statusCode).toBe(202);
      expect(await gateway.outbox.messagesTo('2025550199')).toEqual([]);
      expect(await gateway.latestCode(VICTIM)).toMatch(/^\d{6}$/);
      const codes = await gateway.test.db.query<{ channel: string }>('select channel from one_time_codes');
      expect(codes.rows).toEqual([{ channel: 'email' }]);
    });
  });

  describe('a second registration of the address while the first is still inactive', () => {
    it('replaces the unproved one: the first registrant keeps no claim, the owner activates with their own password from either mailed link', async () => {
      expect((await register(squatter, eurobankRegistration(VICTIM, SQUATTER_PASSWORD, 'Mallory'))).statusCode).toBe(202);
      const squattersLink = await activationTokenFor(gateway.outbox, VICTIM);
      expect((await signIn(squatter, SQUATTER_PASSWORD)).statusCode).toBe(200);
      const [first] = await accountOf(VICTIM);

      // The owner registers, not knowing anyone did before: the same answer as for any address.
      const again = await register(victim, eurobankRegistration(VICTIM, VICTIM_PASSWORD, 'Valerie'));
      expect(again.statusCode).toBe(202);
      expect(again.json()).toEqual({ status: 'CHECK_EMAIL' });
      const accounts = await accountOf(VICTIM);
      expect(accounts).toHaveLength(1);
      expect(accounts[0]).toMatchObject({ status: 'INACTIVE', first_name: 'Valerie' });
      expect(accounts[0]!.id).not.toBe(first!.id);
      const mails = await gateway.outbox.messagesTo(VICTIM);
      expect(mails.map((mail) => mail.subject)).toEqual([
        'Aktivieren Sie Ihr Konto bei Eurobank Vorteilsprogramm',
        'Aktivieren Sie Ihr Konto bei Eurobank Vorteilsprogramm',
      ]);

      // The first registrant's session ended with their account, and their password neither activates nor signs in.
      expect((await background(squatter)).statusCode).toBe(401);
      expect((await activate(squatter, { token: squattersLink, password: SQUATTER_PASSWORD })).json()).toMatchObject({ error: 'PASSWORD_INCORRECT' });
      expect((await signIn(squatter, SQUATTER_PASSWORD)).json()).toMatchObject({ error: 'BAD_CREDENTIALS' });

      // Either link went to the owner's mailbox, so either proves it; with the owner's password it activates.
      expect((await activate(victim, { token: squattersLink, password: VICTIM_PASSWORD })).json()).toEqual({ status: 'ACTIVATED' });
      // The other link is spent with it: it only says the account is active now.
      expect((await activate(victim, { token: await activationTokenFor(gateway.outbox, VICTIM), password: VICTIM_PASSWORD })).json()).toMatchObject({
        error: 'ALREADY_ACTIVE',
      });
      expect((await signIn(victim, VICTIM_PASSWORD)).statusCode).toBe(200);
      expect((await background(victim)).json()).toEqual({ passesBackgroundCheck: true });
    });

    it('ADR 0009 no account oracle: a new address, one whose account nobody activated and an active one get the same status and body', async () => {
      await insertUser(gateway.test.db, { email: 'active@example.com', password: 'Active#Pass123', siteId: 'eurobank' });
      expect((await register(squatter, eurobankRegistration(VICTIM, SQUATTER_PASSWORD, 'Mallory'))).statusCode).toBe(202);
      const answers = [
        await register(victim, eurobankRegistration('nobody@example.com', VICTIM_PASSWORD, 'Nora')),
        await register(victim, eurobankRegistration(VICTIM, VICTIM_PASSWORD, 'Valerie')),
        await register(victim, eurobankRegistration('active@example.com', VICTIM_PASSWORD, 'Alma')),
      ];
      for (const answer of answers) {
        expect(answer.statusCode).toBe(202);
        expect(answer.body).toBe(JSON.stringify({ status: 'CHECK_EMAIL' }));
      }
      // The mailbox alone tells: an activation link to the first two, a "someone tried" mail to the active one.
      expect((await gateway.outbox.messagesTo('nobody@example.com'))[0]?.text).toContain('token=');
      expect((await gateway.outbox.messagesTo(VICTIM))[0]?.text).toContain('token=');
      const [attempt] = await gateway.outbox.messagesTo('active@example.com');
      // In the owner's own language (their account's, en_us), not the registration's.
      expect(attempt?.subject).toBe('Someone tried to register with your e-mail address');
      expect(attempt?.text).not.toContain('token=');
    });
  });

  it('the honest path on eurobank: the registrant activates with their own password (a typo is refused first) and signs in to an active account', async () => {
    expect((await register(victim, eurobankRegistration(VICTIM, VICTIM_PASSWORD, 'Valerie'))).statusCode).toBe(202);
    const token = await activationTokenFor(gateway.outbox, VICTIM);
    const typo = await activate(victim, { token, password: VICTIM_PASSWORD.toLowerCase() });
    expect(typo.json()).toMatchObject({ error: 'PASSWORD_INCORRECT', fields: { password: 'incorrect' }, attemptsLeft: 4 });
    expect((await accountOf(VICTIM))[0]?.status).toBe('INACTIVE');
    const activated = await activate(victim, { token, password: VICTIM_PASSWORD });
    expect(activated.json()).toEqual({ status: 'ACTIVATED' });
    expect((await signIn(victim, VICTIM_PASSWORD)).statusCode).toBe(200);
    expect((await background(victim)).json()).toEqual({ passesBackgroundCheck: true });
    // Their own profile, as registered.
    expect((await accountOf(VICTIM))[0]).toMatchObject({ status: 'ACTIVE', first_name: 'Valerie' });
  });
});
