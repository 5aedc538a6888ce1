import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StoredMessage } from '../../../gateway/mail/mailer';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * Account notices in the person's language (docs/decisions/0021-backup-codes-and-account-notices.md;
 * ADR 0012 jobs, ADR 0014 agents): a mail when the password changes (change or reset), sign-in locks,
 * the account is deleted, or an agent saved a change, read from the outbox. Every existing mail is
 * written in the person's locale too. No body holds a password, a token or a code it was not sent for: the one
 * token a notice of a change holds is its own "this wasn't me" link's (tests/gateway/account/change-notices.test.ts).
 */
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };
const NEW_PASSWORD = 'Neues#Passwort1';
/** A session or activation token, a JWT, or a 32-hex-or-longer secret: none belongs in a notice. */
const TOKEN_LIKE = /[A-Za-z0-9_-]{32,}|eyJ[A-Za-z0-9_-]+\./;
/** ADR 0021 "Telling the holder": the secure-account link of a notice of a change, the one token it may hold. */
const SECURE_LINK = /https?:\/\/\S+\/account\/secure-account\?token=[A-Za-z0-9_-]{43}/;

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  let lukasId: string;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    lukasId = await insertUser(gateway.test.db, LUKAS);
    // SPEC §4 "the user's site locale": the site's `locale` attribute speaks before the account's.
    await gateway.test.db.query(`update users set locale = 'en_us' where id = $1`, [lukasId]);
    await gateway.test.db.query(`update user_sites set attributes = '{"locale": "de_de", "phone": "0301234567"}' where user_id = $1`, [lukasId]);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  const mailsTo = (to: string) => gateway.outbox.messagesTo(to);
  const signIn = (password = LUKAS.password, as = browser) => as.login({ username: LUKAS.email, password, siteId: 'eurobank' });
  const expectNoSecret = (mail: StoredMessage | undefined, secrets: readonly string[]) => {
    for (const secret of secrets) expect(`${mail?.subject}\n${mail?.text}`).not.toContain(secret);
    expect(mail?.text.replace(SECURE_LINK, '')).not.toMatch(TOKEN_LIKE);
  };

  it('a changed password: one mail in German for a de_de user, naming the site and the "this wasn\'t me" link, holding neither password', async () => {
    expect((await signIn()).statusCode).toBe(200);
    const changed = await browser.call({
      method: 'POST',
      url: 'user-mgmt/user/change-password',
      json: { currentPassword: LUKAS.password, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    const mails = await mailsTo(LUKAS.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Ihr Passwort wurde geändert');
    expect(mails[0]?.text).toContain('Eurobank Vorteilsprogramm');
    expect(mails[0]?.text).toMatch(/\/eurobank\/de_de\/account\/secure-account\?token=[A-Za-z0-9_-]{43}\n/);
    expect(mails[0]?.text).toContain('Waren Sie es nicht, sichern Sie Ihr Konto jetzt:');
    expectNoSecret(mails[0], [LUKAS.password, NEW_PASSWORD]);
  });

  it('a reset password: the reset code comes in German, then the notice of the change, without the new password', async () => {
    await browser.call({ method: 'POST', url: 'user-mgmt/user/send-passcode', json: { email: LUKAS.email, siteId: 'eurobank', locale: 'en_us' } });
    const [codeMail] = await mailsTo(LUKAS.email);
    expect(codeMail?.subject).toBe('Ihr Code zum Zurücksetzen des Passworts');
    const code = await gateway.latestCode(LUKAS.email);
    const reset = await browser.call({
      method: 'POST',
      url: 'user-mgmt/user/change-password-from-passcode',
      json: { email: LUKAS.email, passcode: code, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
    });
    expect(reset.statusCode).toBe(200);
    const [notice] = await mailsTo(LUKAS.email);
    expect(notice?.subject).toBe('Ihr Passwort wurde geändert');
    expectNoSecret(notice, [NEW_PASSWORD, code]);
  });

  it('a lock: the wrong password that locks the account sends one mail saying until when; tries while locked send none; an unknown address gets nothing', async () => {
    for (let attempt = 1; attempt <= 4; attempt++) expect((await signIn('Wrong#Password1')).statusCode).toBe(401);
    expect(await mailsTo(LUKAS.email)).toEqual([]);
    const locking = await signIn('Wrong#Password1');
    expect(locking.statusCode).toBe(423);
    expect(locking.json().error).toBe('USER_LOCKED');
    const mails = await mailsTo(LUKAS.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Die Anmeldung bei Ihrem Konto ist pausiert');
    // The lock's end, 15 minutes on, as a German reader writes it.
    const until = new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
      new Date(gateway.clock.now().getTime() + 15 * 60_000),
    );
    expect(mails[0]?.text).toContain(`bis ${until} UTC gesperrt`);
    expectNoSecret(mails[0], ['Wrong#Password1', LUKAS.password]);

    expect((await signIn()).statusCode).toBe(423);
    expect(await mailsTo(LUKAS.email)).toHaveLength(1);

    const stranger = await new TestBrowser(gateway.app, '198.51.100.44').open();
    for (let attempt = 1; attempt <= 5; attempt++) await stranger.login({ username: 'nobody@example.com', password: 'Wrong#Password1', siteId: 'eurobank' });
    expect(await mailsTo('nobody@example.com')).toEqual([]);
    expect((await gateway.test.db.query('select 1 from account_jobs')).rows).toEqual([]);
  });

  it('a deletion: a mail in the person’s language once the account is gone', async () => {
    expect((await signIn()).statusCode).toBe(200);
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/remove-account', json: { password: LUKAS.password } })).statusCode).toBe(200);
    expect((await gateway.test.db.query('select 1 from users where id = $1', [lukasId])).rows).toEqual([]);
    const mails = await mailsTo(LUKAS.email);
    expect(mails.map((mail) => mail.subject)).toEqual(['Ihr Konto wurde gelöscht']);
    expect(mails[0]?.text).toContain('Eurobank Vorteilsprogramm');
  });

  it('an agent’s save: a mail that says a support agent acted, naming the changed fields but not their new values; a save that changes nothing sends none', async () => {
    await insertUser(gateway.test.db, { email: 'riley@example.com', password: 'Agent#Riley2025', siteId: 'eurobank', roles: ['ROLE_CONCIERGE'] });
    const agent = await new TestBrowser(gateway.app, '198.51.100.9').open();
    expect((await agent.call({ method: 'POST', url: 'test-support/session', json: { email: 'riley@example.com', siteId: 'eurobank' } })).statusCode).toBe(200);
    expect((await agent.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email: LUKAS.email } })).statusCode).toBe(200);
    expect(await mailsTo(LUKAS.email)).toEqual([]);

    const save = await agent.call({
      method: 'POST',
      url: 'user-attribute/concierge/v2/user/eurobank',
      json: { attributes: { last_name: 'Neumann' }, baseVersion: 0 },
    });
    expect(save.statusCode).toBe(200);
    const mails = await mailsTo(LUKAS.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Ein Support-Mitarbeiter hat Ihr Konto geändert');
    expect(mails[0]?.text).toMatch(/Ein Support-Mitarbeiter von Eurobank Vorteilsprogramm hat in Ihrem Auftrag am .+ Ihr Konto geändert: Nachname/);
    expect(mails[0]?.text).not.toContain('Neumann');
    expect(mails[0]?.text).not.toContain('riley');

    const whole = await agent.call({ method: 'GET', url: 'user-attribute/concierge/user/eurobank' });
    const { attributes, version } = whole.json().userSites.eurobank as { attributes: Record<string, unknown>; version: number };
    expect(
      (await agent.call({ method: 'POST', url: 'user-attribute/concierge/user/attribute/eurobank', json: { siteId: 'eurobank', attributes, version } }))
        .statusCode,
    ).toBe(200);
    expect(await mailsTo(LUKAS.email)).toHaveLength(1);
  });

  it('an agent’s edit-profile save (the attributes, then the profile copy of ADR 0010) sends the holder one mail, not one per call', async () => {
    await insertUser(gateway.test.db, { email: 'riley@example.com', password: 'Agent#Riley2025', siteId: 'eurobank', roles: ['ROLE_CONCIERGE'] });
    const agent = await new TestBrowser(gateway.app, '198.51.100.9').open();
    expect((await agent.call({ method: 'POST', url: 'test-support/session', json: { email: 'riley@example.com', siteId: 'eurobank' } })).statusCode).toBe(200);
    expect((await agent.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email: LUKAS.email } })).statusCode).toBe(200);
    const save = await agent.call({
      method: 'POST',
      url: 'user-attribute/concierge/v2/user/eurobank',
      json: { attributes: { last_name: 'Neumann' }, baseVersion: 0 },
    });
    expect(save.statusCode).toBe(200);
    expect((await agent.call({ method: 'POST', url: 'user-mgmt/user/concierge/update' })).statusCode).toBe(200);
    const mails = await mailsTo(LUKAS.email);
    expect(mails.map((mail) => mail.subject)).toEqual(['Ein Support-Mitarbeiter hat Ihr Konto geändert']);
    expect(mails[0]?.text).toContain('Nachname');
    // The copy is still audited: the trail records every call, the holder hears of each change once.
    const audit = await agent.call({ method: 'GET', url: 'user-mgmt/user/concierge/audit' });
    expect(audit.json().entries.map((entry: { action: string }) => entry.action)).toEqual(['profile.update', 'attributes.save', 'act-for.start']);
  });

  it('the sign-in passcode comes in the person’s language; its one-time code is the only secret in it', async () => {
    await insertUser(gateway.test.db, { email: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank' });
    await gateway.test.db.query(`update users set locale = 'fr_ca' where email = 'emily@example.com'`);
    const first = await browser.login({ username: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank' });
    expect(first.json().error).toBe('OTP_REQUIRED_EMAIL');
    const [mail] = await mailsTo('emily@example.com');
    expect(mail?.subject).toBe('Votre code à usage unique');
    const code = await gateway.latestCode('emily@example.com');
    expect(mail?.text).toBe(`Votre code à usage unique est ${code}. Il expire dans 10 minutes. Si vous ne l’avez pas demandé, ignorez ce message.`);
  });

  it('a person without a locale, or with one that has no content, reads English', async () => {
    await gateway.test.db.query(`update user_sites set attributes = '{"locale": "xx_yy"}' where user_id = $1`, [lukasId]);
    await gateway.test.db.query(`update users set locale = null where id = $1`, [lukasId]);
    expect((await signIn()).statusCode).toBe(200);
    await browser.call({
      method: 'POST',
      url: 'user-mgmt/user/change-password',
      json: { currentPassword: LUKAS.password, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
    });
    expect((await mailsTo(LUKAS.email)).map((mail) => mail.subject)).toEqual(['Your password was changed']);
  });
});
