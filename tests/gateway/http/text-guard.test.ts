import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTROL_CHARACTERS, HIDDEN_FORMATTING_CHARACTERS } from '../../schemas/validators/golden-tables';
import { ANA_PASSWORD, firstbankUser, register, registrationBody } from '../support/account-requests';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0005-validators.md "Characters": a control character or lone surrogate anywhere in a
 * request (JSON body and keys, form and multipart fields, query, path, X-SITE-ID) is a 400
 * VALIDATION_FAILED naming the field with `invalidCharacter` before anything reaches the database, on
 * the embedded database and on PostgreSQL; hidden formatting in a field with a rule is refused by the
 * site's own form rules. Nothing already saved changes, and nothing is a 500.
 */
const EMILY = 'emily@example.com';
const EMILY_ATTRIBUTES = { first_name: 'Emily', last_name: 'Carter', phone: '(202) 555-0143' };

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let lines: string[];
  let browser: TestBrowser;
  let emilyId: string;

  beforeEach(async () => {
    const log = capturingLogger();
    lines = log.lines;
    gateway = await openSignInGateway(leg, { logger: log.logger });
    emilyId = await insertUser(gateway.test.db, { email: EMILY, password: ANA_PASSWORD, siteId: 'firstbank' });
    await gateway.test.db.query('update user_sites set attributes = $2 where user_id = $1', [emilyId, JSON.stringify(EMILY_ATTRIBUTES)]);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(async () => {
    // No refusal in this file is a 500, so no line of the log is one either.
    expect(lines.filter((line) => line.includes('"level":50'))).toEqual([]);
    await gateway.dispose();
  });

  const expectRefused = (response: LightMyRequestResponse, fields: Record<string, string>) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ error: string; message: string; fields: Record<string, string> }>();
    expect(body).toMatchObject({ error: 'VALIDATION_FAILED', fields });
    for (const name of Object.keys(fields)) expect(body.message).toContain(name);
  };
  const count = async (table: string) => (await gateway.test.db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]!.n;
  const emilySite = async () =>
    (await gateway.test.db.query<{ attributes: unknown; version: number }>('select attributes, version from user_sites where user_id = $1', [emilyId])).rows[0];
  const signInEmily = async () => {
    const session = await browser.call({ method: 'POST', url: 'test-support/session', json: { email: EMILY, siteId: 'firstbank' } });
    expect(session.statusCode).toBe(200);
  };

  describe('registration (POST user-mgmt/user/registration and register/{siteId})', () => {
    it.each(CONTROL_CHARACTERS)('first_name with a %s: 400 naming user.first_name, no account, no job', async (_name, character) => {
      expectRefused(await register(browser, registrationBody(firstbankUser({ first_name: `A${character}B` }))), { 'user.first_name': 'invalidCharacter' });
      const { siteId: _siteId, ...body } = registrationBody(firstbankUser({ last_name: `Sil${character}va` }));
      expectRefused(await register(browser, body, { url: 'user-mgmt/user/register/firstbank' }), { 'user.last_name': 'invalidCharacter' });
      expect(await count('users')).toBe(1);
      expect(await count('account_jobs')).toBe(0);
    });

    it.each(HIDDEN_FORMATTING_CHARACTERS)('first_name with a %s: the site form refuses first_name, as the browser does', async (_name, character) => {
      expectRefused(await register(browser, registrationBody(firstbankUser({ first_name: `A${character}B` }))), { first_name: 'invalidCharacter' });
      expect(await count('account_jobs')).toBe(0);
    });

    it('every field and card at once: each is named, the e-mail and card too', async () => {
      const response = await register(
        browser,
        registrationBody(firstbankUser({ email: 'ana\u0000@example.com', phone: '(202) 555-0143\u0085', nationalId: '\uD800' }), [
          { pan: '4111 1111 1111 1111\u0000' },
        ]),
      );
      expectRefused(response, {
        'user.email': 'invalidCharacter',
        'user.phone': 'invalidCharacter',
        'user.nationalId': 'invalidCharacter',
        'cards.0.pan': 'invalidCharacter',
      });
      expect(await count('account_jobs')).toBe(0);
    });
  });

  describe('the v2 attribute save (POST user-attribute/v2/user/{siteId})', () => {
    it.each(CONTROL_CHARACTERS)('first_name with a %s: 400 naming attributes.first_name; the saved attributes and version stay', async (_name, character) => {
      await signInEmily();
      const before = await emilySite();
      const response = await browser.call({
        method: 'POST',
        url: 'user-attribute/v2/user/firstbank',
        json: { attributes: { first_name: `A${character}B`, last_name: 'Changed' } },
      });
      expectRefused(response, { 'attributes.first_name': 'invalidCharacter' });
      expect(await emilySite()).toEqual(before);
    });

    it('hidden formatting is refused by the site form with the key the browser shows; a key with a NUL is named too', async () => {
      await signInEmily();
      const before = await emilySite();
      expectRefused(await browser.call({ method: 'POST', url: 'user-attribute/v2/user/firstbank', json: { attributes: { first_name: 'Emily\u202Eylime' } } }), {
        first_name: 'invalidCharacter',
      });
      expectRefused(await browser.call({ method: 'POST', url: 'user-attribute/v2/user/firstbank', json: { attributes: { 'first\u0000name': 'x' } } }), {
        'attributes.first\uFFFDname': 'invalidCharacter',
      });
      expect(await emilySite()).toEqual(before);
    });
  });

  describe('sign-in and recovery forms', () => {
    // A multipart body is UTF-8 bytes, where a lone surrogate cannot be written (it arrives as U+FFFD); JSON escapes can carry one.
    it.each(CONTROL_CHARACTERS.filter(([name]) => !name.includes('surrogate')))(
      'a multipart username or password with a %s: 400 naming it; no session',
      async (_name, character) => {
        const login = await browser.login({ username: `emily${character}@example.com`, password: ANA_PASSWORD, siteId: 'firstbank' });
        expectRefused(login, { username: 'invalidCharacter' });
        expect(browser.cookies.has('SESSION')).toBe(false);
        const password = await browser.login({ username: EMILY, password: `${ANA_PASSWORD}${character}`, siteId: 'firstbank' });
        expectRefused(password, { password: 'invalidCharacter' });
        expect(await count('sessions')).toBe(0);
      },
    );

    it('a form-urlencoded token call names the field too', async () => {
      const response = await gateway.app.inject({
        method: 'POST',
        url: '/api/user-auth/oauth/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `XSRF-TOKEN=${browser.cookies.get('XSRF-TOKEN')}`,
          'x-xsrf-token': browser.cookies.get('XSRF-TOKEN')!,
        },
        payload: new URLSearchParams({ grant_type: 'password', username: 'emily\u0000@example.com', password: ANA_PASSWORD, siteId: 'firstbank' }).toString(),
      });
      expectRefused(response, { username: 'invalidCharacter' });
    });

    it.each(CONTROL_CHARACTERS)('find-code with an e-mail holding a %s: 400 naming email', async (_name, character) => {
      expectRefused(
        await browser.call({ method: 'POST', url: 'user-mgmt/user/find-code', json: { email: `emily${character}@example.com`, passcode: '123456' } }),
        { email: 'invalidCharacter' },
      );
    });
  });

  describe('query, path and X-SITE-ID', () => {
    it('a query parameter: named by its name', async () => {
      const response = await browser.call({
        method: 'POST',
        url: 'user-attribute/user/assets/validation?siteId=first%00bank',
        json: { assetType: 'PAN', value: '4111111111111111' },
      });
      expectRefused(response, { siteId: 'invalidCharacter' });
      expectRefused(await browser.call({ method: 'GET', url: 'dev-outbox/messages?to=emily%C2%85%40example.com' }), { to: 'invalidCharacter' });
    });

    it('a path parameter: named by its name', async () => {
      await signInEmily();
      expectRefused(await browser.call({ method: 'GET', url: 'user-attribute/user/first%00bank' }), { siteId: 'invalidCharacter' });
      expectRefused(await browser.call({ method: 'GET', url: 'user-attribute/user/assets/first%C2%85bank' }), { siteId: 'invalidCharacter' });
      // A lone surrogate cannot be percent-encoded as UTF-8: bad percent-encoding, refused before routing.
      const surrogate = await browser.call({ method: 'GET', url: 'user-attribute/user/assets/%ED%A0%80' });
      expect(surrogate.statusCode).toBe(400);
      expect(surrogate.json()).toMatchObject({ error: 'BAD_REQUEST' });
    });

    it('X-SITE-ID: named by the header', async () => {
      await signInEmily();
      const before = await emilySite();
      expectRefused(await browser.call({ method: 'POST', url: 'user-mgmt/user/update', headers: { 'x-site-id': 'first\u0001bank' } }), {
        'x-site-id': 'invalidCharacter',
      });
      expect(await emilySite()).toEqual(before);
    });
  });

  it('the same calls without the character still work (the guard refuses only what it must)', async () => {
    // firstbank asks for an e-mailed passcode after the right password.
    const login = await browser.login({ username: EMILY, password: ANA_PASSWORD, siteId: 'firstbank' });
    expect(login.json()).toMatchObject({ error: 'OTP_REQUIRED_EMAIL' });
    await signInEmily();
    const saved = await browser.call({
      method: 'POST',
      url: 'user-attribute/v2/user/firstbank',
      json: { attributes: { first_name: 'سارة\u200F', last_name: 'Ana 👩\u200D💻' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await emilySite())?.attributes).toMatchObject({ first_name: 'سارة\u200F', last_name: 'Ana 👩\u200D💻' });
  });
});
