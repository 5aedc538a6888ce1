import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { totpCode, totpStepAt } from '../../../gateway/auth/totp';
import type { StoredMessage } from '../../../gateway/mail/mailer';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, signInWithPasscode, type SignInGateway } from '../support/sign-in-gateway';
import { withXsrf } from '../support/test-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * ADR 0021 "Telling the holder": every change of a contact point, authenticator, backup codes, proved e-mail
 * alias or trusted device, and every sign-in from a device new to the account, is told to the contact points the
 * account had before the change, in the holder's language, naming the bank, with a "this wasn't me" link to
 * `/{issuer}/{locale}/account/secure-account?token=…`. Read from the outbox of a real gateway.
 */
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank', phone: '030 1234567' };
const OLD_PHONE = '0301234567';
const NEW_PHONE = '030 98765442';
const EUROBANK = 'Eurobank Vorteilsprogramm';
/** A notice's link: the site and locale of the change, and a 43-character token. */
const SECURE_LINK = /https?:\/\/[^\s/]+\/([a-z0-9_-]+)\/([a-z]{2}_[a-z]{2})\/account\/secure-account\?token=([A-Za-z0-9_-]{43})(?=\s|$)/;
const BACKUP_CODE_SHAPE = /[A-Z2-7]{5}-[A-Z2-7]{5}/;

/** The link of a notice, as `{ site, locale, token }`; fails the test when there is none. */
function linkOf(message: StoredMessage | undefined): { site: string; locale: string; token: string } {
  const match = SECURE_LINK.exec(message?.text ?? '');
  expect(match, message?.text).not.toBeNull();
  return { site: match![1]!, locale: match![2]!, token: match![3]! };
}

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  let lukasId: string;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    lukasId = await insertUser(gateway.test.db, LUKAS);
    // SPEC §4 "the user's site locale": the site's `locale` attribute speaks before the account's.
    await gateway.test.db.query(`update users set locale = 'en_us' where id = $1`, [lukasId]);
    await gateway.test.db.query(`update user_sites set attributes = attributes || '{"locale": "de_de"}' where user_id = $1`, [lukasId]);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  const mailsTo = (to: string) => gateway.outbox.messagesTo(to);
  const signIn = (as = browser) => as.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' });
  const savePhone = (phone: string | null) => browser.call({ method: 'POST', url: 'user-attribute/v2/user/eurobank', json: { attributes: { phone } } });
  /** One notice to Lukas's address, in German, naming the bank, with a link to eurobank's secure-account page in de_de. */
  async function onlyNoticeToLukas(subject: string): Promise<StoredMessage> {
    const mails = await mailsTo(LUKAS.email);
    expect(mails.map((mail) => mail.subject)).toEqual([subject]);
    expect(mails[0]?.text).toContain(EUROBANK);
    expect(mails[0]?.text).toContain('Waren Sie es nicht, sichern Sie Ihr Konto jetzt:');
    expect(linkOf(mails[0])).toMatchObject({ site: 'eurobank', locale: 'de_de' });
    return mails[0]!;
  }

  it('a new phone: the account’s address hears it, and so does the old phone by text, each with a link; neither names more of the new number than its last two digits', async () => {
    expect((await signIn()).statusCode).toBe(200);
    expect((await savePhone(NEW_PHONE)).statusCode).toBe(200);

    const mail = await onlyNoticeToLukas('Die Telefonnummer Ihres Kontos wurde geändert');
    expect(mail.text).toMatch(/^Die Telefonnummer Ihres Kontos bei Eurobank Vorteilsprogramm wurde am .+ in eine Nummer mit der Endung 42 geändert\./);
    const texts = await gateway.outbox.messagesTo(OLD_PHONE);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ channel: 'sms' });
    expect(texts[0]?.text).toMatch(
      /^Eurobank Vorteilsprogramm: Die Telefonnummer Ihres Kontos wurde am .+ in eine Nummer mit der Endung 42 geändert\. Nicht Sie\?/,
    );
    // Each message has its own single-use link.
    expect(linkOf(texts[0]).token).not.toBe(linkOf(mail).token);
    for (const message of [mail, texts[0]]) {
      expect(message?.text).not.toMatch(/98765|8765442|030 9876/);
      expect(message?.text).not.toContain(NEW_PHONE.replace(/\D/g, ''));
    }
    // The new phone gets only the code that would make it count (ADR 0025): no notice, no "this wasn't me" link,
    // since it is what may be the thief's.
    const toNewPhone = await gateway.outbox.messagesTo('03098765442');
    expect(toNewPhone).toHaveLength(1);
    expect(toNewPhone[0]?.text).toMatch(/^Eurobank Vorteilsprogramm: Ihr Code zur Bestätigung dieser Telefonnummer lautet \d{6}\./);
    expect(toNewPhone[0]?.text).not.toMatch(/https?:/);
  });

  it('the whole site object: the phone removed is texted, and a number only typed another way tells no one', async () => {
    expect((await signIn()).statusCode).toBe(200);
    const saveWhole = async (change: (attributes: Record<string, unknown>) => Record<string, unknown>) => {
      const read = await browser.call({ method: 'GET', url: 'user-attribute/user/eurobank' });
      const { attributes, version } = read.json().userSites.eurobank as { attributes: Record<string, unknown>; version: number };
      return browser.call({
        method: 'POST',
        url: 'user-attribute/user/attribute/eurobank',
        json: { siteId: 'eurobank', attributes: change(attributes), version },
      });
    };
    // The same number with other spaces is no new phone.
    expect((await saveWhole((attributes) => ({ ...attributes, phone: '0301 234567' }))).statusCode).toBe(200);
    expect(await mailsTo(LUKAS.email)).toEqual([]);
    expect(await gateway.outbox.messagesTo(OLD_PHONE)).toEqual([]);

    const removed = await saveWhole((attributes) => Object.fromEntries(Object.entries(attributes).filter(([key]) => key !== 'phone')));
    expect(removed.statusCode).toBe(200);
    const mail = await onlyNoticeToLukas('Die Telefonnummer Ihres Kontos wurde geändert');
    expect(mail.text).toMatch(/^Die Telefonnummer Ihres Kontos bei Eurobank Vorteilsprogramm wurde am .+ entfernt\./);
    const [text] = await gateway.outbox.messagesTo(OLD_PHONE);
    expect(text?.text).toMatch(/^Eurobank Vorteilsprogramm: Diese Telefonnummer wurde am .+ aus Ihrem Konto entfernt\./);
    linkOf(text);
    // ADR 0025: a removed phone is no passcode phone any more, at once.
    const stored = await gateway.test.db.query<{ passcode_phone: string | null }>(
      `select passcode_phone from user_sites where user_id = $1 and site_id = 'eurobank'`,
      [lukasId],
    );
    expect(stored.rows[0]?.passcode_phone).toBeNull();
  });

  it('a first phone on a site is texted to the phone passcodes went to before: another site’s', async () => {
    await gateway.test.db.query(`update user_sites set attributes = '{"locale": "de_de"}', passcode_phone = null where user_id = $1`, [lukasId]);
    await gateway.test.db.query(
      `insert into user_sites (user_id, site_id, attributes, passcode_phone) values ($1, 'firstbank', '{"phone": "2025550143"}', '2025550143')`,
      [lukasId],
    );
    // ADR 0017: firstbank's e-mailed passcode is the strongest rule of Lukas's sites, so eurobank asks it too.
    expect((await signInWithPasscode(gateway, browser, { username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' })).statusCode).toBe(200);
    expect((await savePhone(NEW_PHONE)).statusCode).toBe(200);
    const [text] = await gateway.outbox.messagesTo('2025550143');
    expect(text).toMatchObject({ channel: 'sms' });
    expect(text?.text).toContain('Endung 42');
    expect((await mailsTo(LUKAS.email)).map((mail) => mail.subject)[0]).toBe('Die Telefonnummer Ihres Kontos wurde geändert');
  });

  it('an authenticator enrolled, new backup codes, and the authenticator removed: one notice each, with a link and without any code', async () => {
    expect((await signIn()).statusCode).toBe(200);
    const setup = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' });
    const secret = setup.json<{ secret: string }>().secret;
    const codeNow = () => totpCode(secret, totpStepAt(gateway.clock.now()));
    const enrolled = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code: codeNow() } });
    expect(enrolled.statusCode).toBe(200);
    const codes = enrolled.json<{ backupCodes: string[] }>().backupCodes;
    const first = await onlyNoticeToLukas('Für Ihr Konto wurde eine Authenticator-App eingerichtet');
    expect(first.text).not.toMatch(BACKUP_CODE_SHAPE);

    gateway.clock.advance(30);
    const renewed = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/backup-codes', json: { code: codeNow() } });
    expect(renewed.statusCode).toBe(200);
    const [newest] = await mailsTo(LUKAS.email);
    expect(newest?.subject).toBe('Neue Backup-Codes für Ihr Konto');
    expect(newest?.text).toContain(EUROBANK);
    linkOf(newest);
    for (const code of [...codes, ...renewed.json<{ backupCodes: string[] }>().backupCodes]) expect(newest?.text).not.toContain(code);

    const backupCode = renewed.json<{ backupCodes: string[] }>().backupCodes[0]!;
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/unenroll', json: { backupCode } })).statusCode).toBe(200);
    const mails = await mailsTo(LUKAS.email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Die Zwei-Schritt-Verifizierung wurde ausgeschaltet',
      'Neue Backup-Codes für Ihr Konto',
      'Für Ihr Konto wurde eine Authenticator-App eingerichtet',
    ]);
    expect(mails[0]?.text).not.toContain(backupCode);
    linkOf(mails[0]);
    // A refused attempt changes nothing and tells no one.
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/backup-codes', json: { code: '000000' } })).statusCode).toBe(409);
    expect(await mailsTo(LUKAS.email)).toHaveLength(3);
  });

  it('an e-mail alias proved: the account’s own address hears it (the new address gets only its code), the address masked', async () => {
    expect((await signIn()).statusCode).toBe(200);
    const alias = 'lukas.privat@example.net';
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/alias', json: { alias, aliasType: 'EMAIL' } })).statusCode).toBe(200);
    // Added, not yet proved: nothing counts, nothing is told.
    expect(await mailsTo(LUKAS.email)).toEqual([]);
    const code = await gateway.latestCode(alias);
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/alias/confirm', json: { alias, passcode: code } })).statusCode).toBe(200);

    const mail = await onlyNoticeToLukas('Ihrem Konto wurde eine E-Mail-Adresse hinzugefügt');
    expect(mail.text).toMatch(/^Die E-Mail-Adresse l\*\*\*@example\.net wurde am .+ als zweite Adresse Ihres Kontos bei Eurobank Vorteilsprogramm bestätigt\./);
    expect(mail.text).not.toContain(alias);
    expect((await mailsTo(alias)).map((message) => message.subject)).toEqual(['Bestätigen Sie Ihre E-Mail-Adresse']);
    // Posting the proved alias again proves nothing new, and tells no one again.
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/alias/confirm', json: { alias, passcode: code } })).json()).toMatchObject({
      proved: true,
    });
    expect(await mailsTo(LUKAS.email)).toHaveLength(1);
  });

  it('a device trusted at sign-in (maplecu, e-mailed passcode): one notice in French, with a link to maplecu’s page in fr_ca', async () => {
    const camille = { email: 'camille@example.com', password: 'Maple#Erable2025', siteId: 'maplecu' };
    await insertUser(gateway.test.db, camille);
    await gateway.test.db.query(`update users set locale = 'fr_ca' where email = $1`, [camille.email]);
    const signedIn = await signInWithPasscode(gateway, browser, {
      username: camille.email,
      password: camille.password,
      siteId: 'maplecu',
      trust_device: 'true',
    });
    expect(signedIn.statusCode).toBe(200);
    const [notice, passcode] = await mailsTo(camille.email);
    expect(passcode?.subject).toBe('Votre code à usage unique');
    expect(notice?.subject).toBe('Un appareil est maintenant de confiance pour votre compte');
    expect(notice?.text).toMatch(
      /^Quelqu’un s’est connecté à votre compte Maple Credit Union Rewards le .+ et a choisi de faire confiance à cet appareil : il ne demandera pas de code pendant 15 minutes\./,
    );
    expect(notice?.text).toContain('Si ce n’était pas vous, sécurisez votre compte maintenant :');
    expect(linkOf(notice)).toMatchObject({ site: 'maplecu', locale: 'fr_ca' });

    // The trusted device signs in again without a passcode: nothing new is trusted, and it is no new device.
    await browser.call({ method: 'POST', url: 'user-auth/tokens/revoke' });
    expect((await browser.login({ username: camille.email, password: camille.password, siteId: 'maplecu' })).statusCode).toBe(200);
    expect(await mailsTo(camille.email)).toHaveLength(2);
  });

  it('a sign-in from a device new to the account: the first device of an account is told nothing, another one is, once', async () => {
    expect((await signIn()).statusCode).toBe(200);
    expect(await mailsTo(LUKAS.email)).toEqual([]);
    const laptop = await new TestBrowser(gateway.app, '198.51.100.23').open();
    expect((await signIn(laptop)).statusCode).toBe(200);
    const mail = await onlyNoticeToLukas('Neue Anmeldung bei Ihrem Konto');
    expect(mail.text).toMatch(
      /^Am .+ hat sich jemand von einem bisher unbekannten Gerät oder Browser aus bei Ihrem Konto bei Eurobank Vorteilsprogramm angemeldet\./,
    );
    // Known devices, again and in turn: nothing more.
    expect((await signIn(laptop)).statusCode).toBe(200);
    expect((await signIn()).statusCode).toBe(200);
    expect(await mailsTo(LUKAS.email)).toHaveLength(1);
    // A failed sign-in from another device tells nothing (the lock notice has its own rule).
    const stranger = await new TestBrowser(gateway.app, '203.0.113.9').open();
    expect((await stranger.login({ username: LUKAS.email, password: 'Wrong#Password1', siteId: 'eurobank' })).statusCode).toBe(401);
    expect(await mailsTo(LUKAS.email)).toHaveLength(1);
    // Only hashes of the account and device are kept, never the cookie.
    const stored = JSON.stringify((await gateway.test.db.query('select * from known_devices')).rows);
    expect((await gateway.test.db.query('select 1 from known_devices where user_id = $1', [lukasId])).rows).toHaveLength(2);
    for (const as of [browser, laptop]) expect(stored).not.toContain(as.cookies.get('gmap_device'));
  });

  it('an SSO sign-in from a device new to the account is told too (unionbank, test identity provider)', async () => {
    const grace = 'grace.villanueva@example.com';
    const first = await ssoSignIn(gateway.app, null);
    expect(first.statusCode, first.body).toBe(200);
    expect(await mailsTo(grace)).toEqual([]);
    const device = deviceCookieOf(first.headers['set-cookie']);
    // The same browser again: known. Another browser: new.
    expect((await ssoSignIn(gateway.app, device)).statusCode).toBe(200);
    expect(await mailsTo(grace)).toEqual([]);
    expect((await ssoSignIn(gateway.app, null)).statusCode).toBe(200);
    const mails = await mailsTo(grace);
    expect(mails.map((mail) => mail.subject)).toEqual(['New sign-in to your account']);
    expect(mails[0]?.text).toMatch(/^Someone signed in to your UnionBank Rewards account on .+ from a device or browser never used with it before\./);
    expect(linkOf(mails[0])).toMatchObject({ site: 'unionbank', locale: 'en_us' });
  });
});

function deviceCookieOf(setCookie: string | string[] | undefined): string {
  const line = [setCookie ?? []].flat().find((cookie) => cookie.startsWith('gmap_device='));
  expect(line).toBeDefined();
  return line!.slice('gmap_device='.length).split(';')[0]!;
}

/** The SSO flow of ADR 0015 against the test identity provider as Grace, from a browser with `device` (or none yet). */
async function ssoSignIn(app: FastifyInstance, device: string | null) {
  const deviceCookie = device === null ? [] : [`gmap_device=${device}`];
  const query = new URLSearchParams({
    siteId: 'unionbank',
    client_id: 'unionbank-rewards-portal',
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: '/unionbank/en_us/account/redirect-sso',
  });
  const started = await app.inject({ method: 'GET', url: `/api/user-auth/oidc/authorize?${query.toString()}` });
  const binding = [started.headers['set-cookie'] ?? []]
    .flat()
    .find((cookie) => cookie.startsWith('gmap_sso_binding='))!
    .split(';')[0]!;
  const authorizeUrl = new URL(String(started.headers.location), 'http://portal.test');
  const authorize = await app.inject({ method: 'GET', url: `${authorizeUrl.pathname}${authorizeUrl.search}` });
  const interaction = new URL(String(authorize.headers.location), 'http://portal.test').searchParams.get('interaction')!;
  const chosen = await app.inject({ method: 'POST', url: `/test-idp/interactions/${interaction}`, payload: { subject: 'ub-000417' } });
  const back = new URL(chosen.json<{ redirectTo: string }>().redirectTo, 'http://portal.test');
  const finished = await app.inject({
    method: 'POST',
    url: '/api/user-auth/oidc/authorize',
    headers: withXsrf({ cookie: [binding, ...deviceCookie].join('; ') }),
    payload: { siteId: 'unionbank', code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  await app.accountJobs.whenIdle();
  return finished;
}
