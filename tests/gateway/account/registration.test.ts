import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as passwordHashing from '../../../gateway/security/password-hashing';
import { CARD_NUMBER_TABLE, EMAIL_TABLE, PASSWORD_TABLE } from '../../schemas/validators/golden-tables';
import { ANA_PASSWORD, firstbankUser, register, registrationBody, VISA_TEST_PAN } from '../support/account-requests';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';
import { buildGateway } from '../../../gateway/server';
import { buildTestGateway, realFixtures } from '../support/test-gateway';

vi.mock('../../../gateway/security/password-hashing', async (importOriginal) => {
  const original = await importOriginal<typeof passwordHashing>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});

/**
 * docs/decisions/0009-account-lifecycle-api.md "Registration" (SPEC §7 `registration`,
 * `register/{siteId}`): validation by the site's own schema,
 * captcha, the same 202 for new and known addresses, one account per address, cards stored
 * as last four and fingerprint only.
 */
const CHECK_EMAIL = { status: 'CHECK_EMAIL' };

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  const usersNamed = async (email: string) =>
    (
      await gateway.test.db.query<{ id: string; status: string; first_name: string; dob: string; roles: string[] }>(
        'select id, status, first_name, dob, roles from users where email = $1',
        [email],
      )
    ).rows;

  it('names are stored trimmed at both ends (schemas/forms/normalise-form-data.ts, the rule the browser sends by)', async () => {
    expect((await register(browser, registrationBody(firstbankUser({ email: 'zoe@example.com', first_name: '  Zoë  ' })))).statusCode).toBe(202);
    expect((await usersNamed('zoe@example.com'))[0]?.first_name).toBe('Zoë');
  });

  it('ADR 0009: a new address gets 202 CHECK_EMAIL, an INACTIVE user with site attributes, cards, history and an activation mail', async () => {
    const response = await register(browser, registrationBody(firstbankUser({ email: 'Ana@Example.com' })));
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual(CHECK_EMAIL);
    const [user] = await usersNamed('ana@example.com');
    expect(user).toMatchObject({ status: 'INACTIVE', first_name: 'Ana', dob: '1990-04-12', roles: ['ROLE_CARDHOLDER'] });
    const site = await gateway.test.db.query<{ site_id: string; attributes: Record<string, unknown> }>(
      'select site_id, attributes from user_sites where user_id = $1',
      [user!.id],
    );
    expect(site.rows).toHaveLength(1);
    expect(site.rows[0]!.site_id).toBe('firstbank');
    // The validated form data minus password, confirmation and the consent tick; the form's opt-in list
    // `{ email: true }` stored in SPEC §3's one shape, the one the profile reads.
    expect(site.rows[0]!.attributes).toMatchObject({ phone: '(202) 555-0143', nationalId: '536220871' });
    expect(site.rows[0]!.attributes.marketing_opt_ins).toEqual({ email: { optin: true } });
    expect(Object.keys(site.rows[0]!.attributes)).not.toEqual(expect.arrayContaining(['password']));
    expect(site.rows[0]!.attributes).not.toHaveProperty('confirm_password');
    expect(site.rows[0]!.attributes).not.toHaveProperty('pp');
    const cards = await gateway.test.db.query('select * from assets where user_id = $1', [user!.id]);
    expect(cards.rows).toHaveLength(1);
    // ADR 0011: product type, eligibility (a VOP card id) and issuer from fixtures/bin-ranges.json.
    expect(cards.rows[0]).toMatchObject({ site_id: 'firstbank', last_four: '1111', product_type: 'C', issuer_bid: '10001111', is_default: true });
    expect(cards.rows[0]!.vop_card_id).toMatch(/^vop_[A-Za-z0-9_-]{22}$/);
    expect(cards.rows[0]!.pan_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    // DESIGN "Contracts": no column anywhere holds the card number.
    expect(JSON.stringify(cards.rows)).not.toContain('4111111111111111');
    expect(JSON.stringify(site.rows)).not.toMatch(/4111 ?1111 ?1111 ?1111/);
    expect(site.rows[0]!.attributes.email).toBe('ana@example.com');
    const history = await gateway.test.db.query<{ password_hash: string }>('select password_hash from password_history where user_id = $1', [user!.id]);
    expect(history.rows).toHaveLength(1);
    expect(history.rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
    const [mail] = await gateway.outbox.messagesTo('ana@example.com');
    // The welcome names the bank the account was opened with.
    expect(mail?.subject).toBe('Activate your FirstBank Rewards account');
    expect(mail?.text).toMatch(/^Welcome to FirstBank Rewards! /);
    expect(mail?.text).toMatch(/http:\/\/localhost(:\d+)?\/firstbank\/en_us\/account\/activate\?token=[A-Za-z0-9_-]{43}\b/);
  });

  it('register/{siteId} takes the site from the path', async () => {
    const { siteId: _siteId, ...body } = registrationBody();
    const response = await register(browser, body, { url: 'user-mgmt/user/register/firstbank' });
    expect(response.statusCode).toBe(202);
    expect(await usersNamed('ana@example.com')).toHaveLength(1);
  });

  it('ADR 0009: an address that has an account gets the same 202 and body, no second account, and its owner a mail', async () => {
    await insertUser(gateway.test.db, { email: 'ana@example.com', password: 'Existing#Pass1', siteId: 'firstbank' });
    const response = await register(browser, registrationBody());
    const fresh = await register(await new TestBrowser(gateway.app, '198.51.100.8').open(), registrationBody(firstbankUser({ email: 'new@example.com' })));
    expect(response.statusCode).toBe(202);
    expect(response.body).toBe(fresh.body);
    expect(await usersNamed('ana@example.com')).toHaveLength(1);
    const [mail] = await gateway.outbox.messagesTo('ana@example.com');
    expect(mail?.subject).toBe('Someone tried to register with your e-mail address');
    expect(mail?.text).toContain('/firstbank/en_us/account/recovery');
    expect(mail?.text).not.toContain('token=');
    // The existing account is untouched: still active, no new cards or history.
    expect((await usersNamed('ana@example.com'))[0]?.status).toBe('ACTIVE');
    expect((await gateway.test.db.query('select 1 from assets')).rows).toHaveLength(1);
  });

  it('ADR 0009: new and known addresses both compute an argon2 hash (same work, not timed)', async () => {
    await insertUser(gateway.test.db, { email: 'ana@example.com', password: 'Existing#Pass1', siteId: 'firstbank' });
    const hashes = vi.mocked(passwordHashing.hashPassword);
    hashes.mockClear();
    await register(browser, registrationBody());
    const known = hashes.mock.calls.length;
    hashes.mockClear();
    await register(browser, registrationBody(firstbankUser({ email: 'new@example.com' })));
    expect(known).toBe(1);
    expect(hashes.mock.calls.length).toBe(1);
  });

  it('a double-submitted registration creates one account, and each of its mailed links activates it with the password (ADR 0009 "Activation")', async () => {
    const body = registrationBody();
    const answers = await Promise.all([register(browser, body), register(browser, body), register(browser, body)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202, 202]);
    expect(await usersNamed('ana@example.com')).toHaveLength(1);
    expect((await gateway.test.db.query('select 1 from assets')).rows).toHaveLength(1);
    const mails = await gateway.outbox.messagesTo('ana@example.com');
    // Until the address is proved, each registration replaces the last; the links already mailed go on working.
    expect(mails.map((message) => message.subject)).toEqual([
      'Activate your FirstBank Rewards account',
      'Activate your FirstBank Rewards account',
      'Activate your FirstBank Rewards account',
    ]);
    const links = mails.map((message) => /\/account\/activate\?token=([A-Za-z0-9_-]+)/.exec(message.text)?.[1]);
    expect((await gateway.test.db.query('select 1 from activation_tokens where used_at is null')).rows).toHaveLength(3);
    // The oldest one (the person opens the first mail), with the password typed at registration.
    const activated = await browser.call({ method: 'POST', url: 'user-mgmt/user/activate-token', json: { token: links.at(-1), password: ANA_PASSWORD } });
    expect(activated.json()).toEqual({ status: 'ACTIVATED' });
    expect((await usersNamed('ana@example.com'))[0]?.status).toBe('ACTIVE');
    // The address is proved: the other links are spent with it.
    expect((await gateway.test.db.query('select 1 from activation_tokens where used_at is null')).rows).toHaveLength(0);
  });

  it('ADR 0009 "Activation": a registration of an address whose account nobody activated replaces that account whole (the first registrant keeps no claim)', async () => {
    expect(
      (await register(browser, registrationBody(firstbankUser({ first_name: 'Mallory', password: 'Squatters#Pass77', confirm_password: 'Squatters#Pass77' }))))
        .statusCode,
    ).toBe(202);
    const [first] = await usersNamed('ana@example.com');
    const other = await new TestBrowser(gateway.app, '198.51.100.9').open();
    const again = await register(other, registrationBody(firstbankUser(), []));
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(CHECK_EMAIL);
    const [replaced, ...more] = await usersNamed('ana@example.com');
    expect(more).toEqual([]);
    expect(replaced).toMatchObject({ status: 'INACTIVE', first_name: 'Ana' });
    expect(replaced!.id).not.toBe(first!.id);
    // Nothing of the first registration is left: its card and its password are gone with it.
    expect((await gateway.test.db.query('select 1 from assets')).rows).toEqual([]);
    expect((await gateway.test.db.query('select 1 from password_history')).rows).toHaveLength(1);
  });

  it('ADR 0012: the account is made after the answer, by the job; the job row is gone once it ran', async () => {
    const xsrf = browser.cookies.get('XSRF-TOKEN') ?? '';
    // Injected directly (TestBrowser.call waits for the jobs): the answer comes before the account exists.
    const answer = await gateway.app.inject({
      method: 'POST',
      url: '/api/user-mgmt/user/registration',
      remoteAddress: browser.ip,
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, 'x-hcaptcha-token': 'test' },
      payload: JSON.stringify(registrationBody()),
    });
    expect(answer.statusCode).toBe(202);
    expect(await usersNamed('ana@example.com')).toHaveLength(0);
    const queued = await gateway.test.db.query<{ payload: string }>('select payload::text as payload from account_jobs');
    expect(queued.rows).toHaveLength(1);
    // The stored job carries the hash and the card's fingerprint, never the password or the number.
    expect(queued.rows[0]!.payload).not.toContain(ANA_PASSWORD);
    expect(queued.rows[0]!.payload).not.toContain(VISA_TEST_PAN.replace(/ /g, ''));
    await gateway.app.accountJobs.whenIdle();
    expect(await usersNamed('ana@example.com')).toHaveLength(1);
    expect((await gateway.test.db.query('select 1 from account_jobs')).rows).toHaveLength(0);
  });

  it('ADR 0012: when the activation mail fails after the account was made, the retry mails an activation link, not "someone tried"', async () => {
    const send = gateway.outbox.send.bind(gateway.outbox);
    gateway.outbox.send = async () => {
      gateway.outbox.send = send;
      throw new Error('mail server down');
    };
    expect((await register(browser, registrationBody())).statusCode).toBe(202);
    expect(await usersNamed('ana@example.com')).toHaveLength(1);
    expect(await gateway.outbox.messagesTo('ana@example.com')).toHaveLength(0);
    gateway.clock.advance(31);
    gateway.app.accountJobs.wake();
    await gateway.app.accountJobs.whenIdle();
    const mails = await gateway.outbox.messagesTo('ana@example.com');
    expect(mails.map((mail) => mail.subject)).toEqual(['Activate your FirstBank Rewards account']);
    expect(await usersNamed('ana@example.com')).toHaveLength(1);
  });

  it('ADR 0012: a breached password is refused at registration (400 PASSWORD_COMPROMISED naming user.password); no account, no job', async () => {
    const response = await register(browser, registrationBody(firstbankUser({ password: 'P@ssw0rd', confirm_password: 'P@ssw0rd' })));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'PASSWORD_COMPROMISED', fields: { 'user.password': 'passwordCompromised' } });
    expect(await usersNamed('ana@example.com')).toHaveLength(0);
    expect((await gateway.test.db.query('select 1 from account_jobs')).rows).toHaveLength(0);
  });

  it('the same double submit through two gateway instances on one database creates one account', async () => {
    const second = await buildGateway({
      db: await gateway.test.openSecondInstance(),
      fixtures: await realFixtures(),
      testMode: true,
      auth: { clock: gateway.clock, devOutbox: gateway.outbox },
    });
    try {
      const body = registrationBody();
      const [first, other] = await Promise.all([register(browser, body), register(await new TestBrowser(second).open(), body)]);
      expect([first.statusCode, other.statusCode]).toEqual([202, 202]);
      expect(await usersNamed('ana@example.com')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('registration input (no database reached)', async () => {
  const app = await buildTestGateway();
  let address = 0;
  // Each call from its own address, so the per-IP limit (ADR 0009) never interferes.
  const fresh = () => new TestBrowser(app, `203.0.113.${++address % 250}`).open();

  it.each([
    ['missing', null],
    ['empty', ''],
    ['blank', '   '],
  ])('SPEC §7 captcha_required: a %s X-HCAPTCHA-TOKEN is 400 CAPTCHA_REQUIRED naming the header', async (_name, captcha) => {
    const response = await register(await fresh(), registrationBody(), { captcha });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'CAPTCHA_REQUIRED', fields: { 'x-hcaptcha-token': 'required' } });
  });

  it('a site without captcha_required (unionbank) needs no token', async () => {
    const body = {
      siteId: 'unionbank',
      locale: 'en_us',
      user: { first_name: 'Ana', last_name: 'Silva', email: 'ana@example.com', password: ANA_PASSWORD, confirm_password: ANA_PASSWORD },
    };
    const response = await register(await fresh(), body, { captcha: null });
    // Past the captcha rule: what stops it now is the form, not the token.
    expect(response.json().error).not.toBe('CAPTCHA_REQUIRED');
  });

  it('names every refused field, cards as cards.N.pan, in one 400 VALIDATION_FAILED', async () => {
    const body = registrationBody(firstbankUser({ email: 'not-an-email', first_name: '<b>', confirm_password: 'Other#Pass1', pp: false }), [
      { pan: '4111 1111 1111 1112' },
      { pan: VISA_TEST_PAN },
      { pan: VISA_TEST_PAN },
    ]);
    const response = await register(await fresh(), body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'VALIDATION_FAILED',
      fields: { email: 'error', first_name: 'error', confirm_password: 'mustMatch', 'cards.0.pan': 'invalid', 'cards.2.pan': 'invalid' },
    });
    expect(response.json().fields).toHaveProperty('pp');
    expect(response.json().fields).not.toHaveProperty('cards.1.pan');
  });

  it('ADR 0011 at sign-up: a card the BIN ranges make ineligible is cards.N.pan notEligible; more cards than the site limit is cards limit', async () => {
    // 4100 0000 0000 0019: Luhn-valid, starts with 4, in no eligible range (fixtures/README.md "BIN ranges").
    const ineligible = await register(await fresh(), registrationBody(firstbankUser(), [{ pan: VISA_TEST_PAN }, { pan: '4100 0000 0000 0019' }]));
    expect(ineligible.statusCode).toBe(400);
    expect(ineligible.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { 'cards.1.pan': 'notEligible' } });
    expect(ineligible.json().fields).not.toHaveProperty('cards.0.pan');
    // northbank keeps at most 2 cards (pan_capture.limit "2").
    const threeCards = [{ pan: VISA_TEST_PAN }, { pan: '4242 4242 4242 4242' }, { pan: '4012 8888 8888 1881' }];
    const overLimit = await register(await fresh(), { siteId: 'northbank', locale: 'en_ca', user: {}, cards: threeCards });
    expect(overLimit.statusCode).toBe(400);
    expect(overLimit.json().fields).toMatchObject({ cards: 'limit' });
  });

  it('a site that requires a card at sign-up (sabana, user_asset_profile.pan Mandatory) refuses none', async () => {
    const response = await register(await fresh(), { siteId: 'sabana', locale: 'es_co', user: {}, cards: [] });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({ cards: 'required' });
  });

  it.each([
    ['an unknown site', { ...registrationBody(), siteId: 'nosuchbank' }, 'siteId'],
    ['no user', { siteId: 'firstbank', locale: 'en_us' }, 'user'],
    ['a bad locale', { ...registrationBody(), locale: 'english' }, 'locale'],
    ['a number as card', { ...registrationBody(), cards: [{ pan: { digits: 4111 } }] }, 'cards.0.pan'],
    ['too many cards', { ...registrationBody(), cards: Array.from({ length: 11 }, () => ({ pan: VISA_TEST_PAN })) }, 'cards'],
    ['a user that is a list', { ...registrationBody(), user: [1, 2] }, 'user'],
  ])('%s is a 400 naming the field, never a 500', async (_name, body, field) => {
    const response = await register(await fresh(), body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('VALIDATION_FAILED');
    expect(Object.keys(response.json().fields ?? {})).toContain(field);
  });

  // The golden tables' invalid rows, with the browser bypassed: the gateway refuses each (ADR 0006).
  const invalidRows = (rows: typeof EMAIL_TABLE.rows) =>
    rows.filter((row) => row[2] !== null && Object.keys(row[1]).length === 0).map((row) => [JSON.stringify(row[0]), row[0], row[2]!.key] as const);

  it.each(invalidRows(EMAIL_TABLE.rows))('golden email %s is refused with its key', async (_name, value, key) => {
    const response = await register(await fresh(), registrationBody(firstbankUser({ email: value })));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.email).toBe(key);
  });

  it.each(invalidRows(PASSWORD_TABLE.rows))('golden password %s is refused with its key', async (_name, value, key) => {
    const response = await register(await fresh(), registrationBody(firstbankUser({ password: value, confirm_password: value })));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.password).toBe(key);
  });

  it.each(invalidRows(CARD_NUMBER_TABLE.rows))('golden card number %s is refused as cards.0.pan', async (_name, value, key) => {
    const response = await register(await fresh(), registrationBody(firstbankUser(), [{ pan: value }]));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields['cards.0.pan']).toBe(key);
  });

  it('per IP: the 21st registration call in 15 minutes is 429 RATE_LIMITED (README "Sign-in limits")', async () => {
    const browser = await new TestBrowser(app, '192.0.2.200').open();
    for (let call = 0; call < 20; call++) expect((await register(browser, { siteId: 'nosuchbank', locale: 'en_us', user: {} })).statusCode).toBe(400);
    const limited = await register(browser, { siteId: 'nosuchbank', locale: 'en_us', user: {} });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeTruthy();
  });
});
