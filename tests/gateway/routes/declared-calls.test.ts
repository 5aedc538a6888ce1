import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionIdOf } from '../../../gateway/auth/session-store';
import { SIGN_IN_LIMITS } from '../../../gateway/limits/sign-in-limits';
import { eligiblePan, openCardsGateway, PASSWORD, testPan, type CardsGateway } from '../cards/card-test-support';
import { describeEachDatabase } from '../support/database-legs';
import { insertUser } from '../support/test-browser';

/**
 * SPEC §7's declared calls as docs/decisions/0022-declared-calls.md designs them: `user-mgmt/user/alias`,
 * `user-auth/auth/user-token`, `user-auth/auth/refresh-token`, `assets/validation`, and the promotions
 * hosts' `{locale}/account/configurations/promotions-{locale}.json`.
 */
const SITE = 'firstbank';
const OTHER_SITE = 'northbank';
const ALIAS = 'user-mgmt/user/alias';

describeEachDatabase((leg) => {
  let gateway: CardsGateway;
  beforeEach(async () => {
    gateway = await openCardsGateway(leg);
  });
  afterEach(() => gateway.dispose());

  describe('POST user-mgmt/user/alias', () => {
    it("stores the holder's USERNAME alias on the session's site, and a second call replaces it", async () => {
      const { browser, userId } = await gateway.signedIn('emily@example.com', SITE);
      const first = await browser.call({ method: 'POST', url: ALIAS, json: { alias: 'Emily.C', aliasType: 'USERNAME' } });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ alias: 'Emily.C', aliasType: 'USERNAME', proved: true });
      expect((await browser.call({ method: 'POST', url: ALIAS, json: { alias: 'emily_c', aliasType: 'USERNAME' } })).statusCode).toBe(200);
      const rows = await gateway.test.db.query('select user_id, site_id, alias_type, alias, normalised from user_aliases');
      expect(rows.rows).toEqual([{ user_id: userId, site_id: SITE, alias_type: 'USERNAME', alias: 'emily_c', normalised: 'emily_c' }]);
    });

    it('409 ALIAS_TAKEN naming the field when another account of the site holds the USERNAME (any case); another site may use it', async () => {
      const emily = await gateway.signedIn('emily@example.com', SITE);
      const daniel = await gateway.signedIn('daniel@example.com', SITE);
      const elsewhere = await gateway.signedIn('noah@example.com', OTHER_SITE);
      expect((await emily.browser.call({ method: 'POST', url: ALIAS, json: { alias: 'rewards-fan', aliasType: 'USERNAME' } })).statusCode).toBe(200);
      const taken = await daniel.browser.call({ method: 'POST', url: ALIAS, json: { alias: 'Rewards-Fan', aliasType: 'USERNAME' } });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ error: 'ALIAS_TAKEN', fields: { alias: 'taken' } });
      expect((await elsewhere.browser.call({ method: 'POST', url: ALIAS, json: { alias: 'rewards-fan', aliasType: 'USERNAME' } })).statusCode).toBe(200);
      const kept = await gateway.test.db.query<{ user_id: string }>('select user_id from user_aliases where site_id = $1', [SITE]);
      expect(kept.rows).toEqual([{ user_id: emily.userId }]);
      // An EMAIL alias is never refused as taken: it waits for its proof (ADR 0022, tests/gateway/routes/alias-proof.test.ts).
    });

    it.each([
      [{ alias: 'ab', aliasType: 'USERNAME' }, 'alias', 'invalid'],
      [{ alias: 'a'.repeat(33), aliasType: 'USERNAME' }, 'alias', 'invalid'],
      [{ alias: 'ana smith', aliasType: 'USERNAME' }, 'alias', 'invalid'],
      [{ alias: 'аna', aliasType: 'USERNAME' }, 'alias', 'invalid'],
      [{ alias: 'ana\u200bsmith', aliasType: 'USERNAME' }, 'alias', 'invalidCharacter'],
      [{ alias: 'ana\u0007', aliasType: 'USERNAME' }, 'alias', 'invalidCharacter'],
      [{ alias: '   ', aliasType: 'USERNAME' }, 'alias', 'required'],
      [{ alias: 'not-an-address', aliasType: 'EMAIL' }, 'alias', 'error'],
    ])('400 VALIDATION_FAILED naming the field for %j, nothing stored', async (body, field, key) => {
      const { browser } = await gateway.signedIn('emily@example.com', SITE);
      const response = await browser.call({ method: 'POST', url: ALIAS, json: body });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('VALIDATION_FAILED');
      expect(response.json().fields).toEqual({ [field]: key });
      expect((await gateway.test.db.query('select 1 from user_aliases')).rows).toEqual([]);
    });

    it('malformed bodies are clear 400s, never 500: bad type, missing field, extra field, not JSON', async () => {
      const { browser } = await gateway.signedIn('emily@example.com', SITE);
      for (const json of [
        { alias: 'emily', aliasType: 'NICKNAME' },
        { alias: 'emily' },
        { alias: 'emily', aliasType: 'USERNAME', siteId: SITE, extra: 1 },
        { alias: 7, aliasType: 'USERNAME' },
      ]) {
        const response = await browser.call({ method: 'POST', url: ALIAS, json });
        expect(response.statusCode, JSON.stringify(json)).toBe(400);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
      }
      const broken = await browser.call({ method: 'POST', url: ALIAS, headers: { 'content-type': 'application/json' }, json: undefined });
      expect(broken.statusCode).toBe(400);
    });

    it('ADR 0017: 401 without a session; 403 SITE_MISMATCH when the request names another site; 403 without the XSRF pair', async () => {
      const anonymous = await gateway.anonymous();
      expect((await anonymous.call({ method: 'POST', url: ALIAS, json: { alias: 'emily', aliasType: 'USERNAME' } })).json().error).toBe('UNAUTHENTICATED');
      const { browser } = await gateway.signedIn('emily@example.com', SITE);
      const mismatch = await browser.call({
        method: 'POST',
        url: ALIAS,
        headers: { 'x-site-id': OTHER_SITE },
        json: { alias: 'emily', aliasType: 'USERNAME' },
      });
      expect(mismatch.statusCode).toBe(403);
      expect(mismatch.json().error).toBe('SITE_MISMATCH');
      const noXsrf = await browser.call({ method: 'POST', url: ALIAS, json: { alias: 'emily', aliasType: 'USERNAME' }, withoutXsrfHeader: true });
      expect(noXsrf.json().error).toBe('XSRF_TOKEN_MISSING');
      expect((await gateway.test.db.query('select 1 from user_aliases')).rows).toEqual([]);
    });

    it(`429 RATE_LIMITED past ${SIGN_IN_LIMITS.aliasCallsPerAccount} calls of one account in the window (alias guessing)`, async () => {
      const { browser } = await gateway.signedIn('emily@example.com', SITE);
      for (let attempt = 0; attempt < SIGN_IN_LIMITS.aliasCallsPerAccount; attempt++) {
        expect((await browser.call({ method: 'POST', url: ALIAS, json: { alias: `guess${attempt}`, aliasType: 'USERNAME' } })).statusCode).toBe(200);
      }
      const limited = await browser.call({ method: 'POST', url: ALIAS, json: { alias: 'one-more', aliasType: 'USERNAME' } });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe('RATE_LIMITED');
    });

    it('ADR 0014: an agent sets the alias of the card holder they act for, audited; before choosing one, 409 NOT_ACTING_FOR_USER', async () => {
      const emily = await gateway.signedIn('emily@example.com', SITE);
      const agentId = await insertUser(gateway.test.db, { email: 'riley@example.com', password: PASSWORD, siteId: SITE, roles: ['ROLE_CONCIERGE'] });
      const agent = await gateway.signedInOn('riley@example.com', SITE);
      const early = await agent.call({ method: 'POST', url: ALIAS, json: { alias: 'emily', aliasType: 'USERNAME' } });
      expect(early.statusCode).toBe(409);
      expect(early.json().error).toBe('NOT_ACTING_FOR_USER');
      expect((await agent.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email: 'emily@example.com' } })).statusCode).toBe(200);
      expect((await agent.call({ method: 'POST', url: ALIAS, json: { alias: 'card-fan-77', aliasType: 'USERNAME' } })).statusCode).toBe(200);
      expect((await gateway.test.db.query('select user_id, site_id from user_aliases')).rows).toEqual([{ user_id: emily.userId, site_id: SITE }]);
      // ADR 0021: the holder is told an agent changed their account, naming what, never the new value.
      await gateway.app.accountJobs.whenIdle();
      const mails = await gateway.outbox.messagesTo('emily@example.com');
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain('alias');
      expect(mails[0]?.text).not.toContain('card-fan-77');
      const audit = await gateway.test.db.query('select agent_id, user_id, action from concierge_audit where action = $1', ['alias.set']);
      expect(audit.rows).toEqual([{ agent_id: agentId, user_id: emily.userId, action: 'alias.set' }]);
    });
  });

  describe('user-auth/auth/user-token and refresh-token', () => {
    it('user-token: 401 UNAUTHENTICATED without a session', async () => {
      const anonymous = await gateway.anonymous();
      const response = await anonymous.call({ method: 'GET', url: 'user-auth/auth/user-token' });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe('UNAUTHENTICATED');
    });

    it("user-token: the session's access token (SPEC §3 payload), its remaining expires_in, user type and site", async () => {
      const { browser, userId } = await gateway.signedIn('emily@example.com', SITE);
      gateway.clock.advance(10 * 60);
      const response = await browser.call({ method: 'GET', url: 'user-auth/auth/user-token' });
      expect(response.statusCode).toBe(200);
      const answer = response.json();
      expect(answer).toMatchObject({ token_type: 'bearer', user_type: 'CARDHOLDER', siteId: SITE, authorities: ['ROLE_CARDHOLDER', SITE] });
      // The test clock also runs with real time: a second may have passed since the sign-in.
      expect(answer.expires_in).toBeGreaterThanOrEqual(20 * 60 - 5);
      expect(answer.expires_in).toBeLessThanOrEqual(20 * 60);
      const claims = JSON.parse(Buffer.from(answer.access_token.split('.')[1], 'base64url').toString('utf8'));
      expect(claims).toMatchObject({ sub: userId, siteId: SITE, authorities: ['ROLE_CARDHOLDER', SITE] });
      const session = await gateway.test.db.query<{ expires_at: Date | string }>('select expires_at from sessions where revoked_at is null');
      expect(claims.exp).toBe(Math.floor(new Date(session.rows[0]!.expires_at).getTime() / 1000));
    });

    it('refresh-token: replaces the session (new SESSION cookie, full expires_in, new tokens); the old cookie and its refresh tokens are dead', async () => {
      const { browser } = await gateway.signedIn('emily@example.com', SITE);
      const before = browser.cookies.get('SESSION')!;
      gateway.clock.advance(20 * 60);
      const refreshed = await browser.call({ method: 'POST', url: 'user-auth/auth/refresh-token' });
      expect(refreshed.statusCode).toBe(200);
      expect(refreshed.json()).toMatchObject({ status: 'SIGNED_IN', expires_in: 30 * 60, user_type: 'CARDHOLDER', token_type: 'bearer' });
      expect(typeof refreshed.json().refresh_token).toBe('string');
      const after = browser.cookies.get('SESSION')!;
      expect(after).not.toBe(before);
      const old = await gateway.test.db.query<{ revoked: boolean }>('select revoked_at is not null as revoked from sessions where id = $1', [
        sessionIdOf(before),
      ]);
      expect(old.rows).toEqual([{ revoked: true }]);
      // 25 minutes later the first session would have ended; the refreshed one goes on.
      gateway.clock.advance(25 * 60);
      expect((await browser.call({ method: 'GET', url: 'user-auth/auth/user-token' })).statusCode).toBe(200);
      const replay = await gateway.anonymous();
      replay.cookies.set('SESSION', before);
      expect((await replay.call({ method: 'POST', url: 'user-auth/auth/refresh-token' })).statusCode).toBe(401);
    });

    it('refresh-token: 401 without a session, 403 without the XSRF pair; a body is ignored, never read as a token', async () => {
      const anonymous = await gateway.anonymous();
      const response = await anonymous.call({ method: 'POST', url: 'user-auth/auth/refresh-token', json: { refresh_token: 'x' } });
      expect(response.statusCode).toBe(401);
      const { browser } = await gateway.signedIn('emily@example.com', SITE);
      expect((await browser.call({ method: 'POST', url: 'user-auth/auth/refresh-token', withoutXsrfHeader: true })).json().error).toBe('XSRF_TOKEN_MISSING');
      const withForm = await browser.call({ method: 'POST', url: 'user-auth/auth/refresh-token', form: { refresh_token: 'not-read' } });
      expect(withForm.statusCode).toBe(200);
    });

    it('two refreshes racing with one cookie: one renews the session, the other is 401, so only one session lives', async () => {
      const { browser, userId } = await gateway.signedIn('emily@example.com', SITE);
      const cookie = `SESSION=${browser.cookies.get('SESSION')}; XSRF-TOKEN=${browser.cookies.get('XSRF-TOKEN')}`;
      const race = () =>
        gateway.app.inject({
          method: 'POST',
          url: '/api/user-auth/auth/refresh-token',
          headers: { cookie, 'x-xsrf-token': browser.cookies.get('XSRF-TOKEN')! },
        });
      const answers = await Promise.all([race(), race()]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
      const live = await gateway.test.db.query('select 1 from sessions where user_id = $1 and revoked_at is null', [userId]);
      expect(live.rows).toHaveLength(1);
    });

    it('refresh-token keeps an agent acting for the same card holder (ADR 0014)', async () => {
      const emily = await gateway.signedIn('emily@example.com', SITE);
      await insertUser(gateway.test.db, { email: 'riley@example.com', password: PASSWORD, siteId: SITE, roles: ['ROLE_CONCIERGE'] });
      const agent = await gateway.signedInOn('riley@example.com', SITE);
      expect((await agent.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email: 'emily@example.com' } })).statusCode).toBe(200);
      expect((await agent.call({ method: 'POST', url: 'user-auth/auth/refresh-token' })).json().user_type).toBe('CONCIERGE');
      const acting = await gateway.test.db.query('select acting_for_user_id from sessions where id = $1', [sessionIdOf(agent.cookies.get('SESSION')!)]);
      expect(acting.rows).toEqual([{ acting_for_user_id: emily.userId }]);
    });
  });

  describe('POST assets/validation', () => {
    it('SPEC §3 validation response for the named site without enrolling: eligible and product type; outside the BIN ranges not eligible', async () => {
      const anonymous = await gateway.anonymous();
      const eligible = await anonymous.call({
        method: 'POST',
        url: `assets/validation?siteId=${SITE}`,
        json: { assetType: 'PAN', value: eligiblePan(7).replace(/(\d{4})(?=\d)/g, '$1 ') },
      });
      expect(eligible.statusCode).toBe(200);
      expect(eligible.json()).toEqual({ eligible: true, productType: 'C' });
      const outside = await anonymous.call({
        method: 'POST',
        url: 'assets/validation',
        headers: { 'x-site-id': SITE },
        json: { assetType: 'PAN', value: testPan('455555', 7) },
      });
      expect(outside.json()).toEqual({ eligible: false, productType: null });
      expect((await gateway.test.db.query('select 1 from assets')).rows).toEqual([]);
    });

    it('a bad number, a missing or unknown site and a malformed body are 400s naming the field; the number is never echoed', async () => {
      const anonymous = await gateway.anonymous();
      const luhn = await anonymous.call({ method: 'POST', url: `assets/validation?siteId=${SITE}`, json: { assetType: 'PAN', value: '4111111111111112' } });
      expect(luhn.statusCode).toBe(400);
      expect(luhn.json().fields).toEqual({ value: 'invalid' });
      expect(luhn.body).not.toContain('4111111111111112');
      expect((await anonymous.call({ method: 'POST', url: 'assets/validation', json: { assetType: 'PAN', value: eligiblePan(1) } })).json().fields).toEqual({
        siteId: 'required',
      });
      expect(
        (await anonymous.call({ method: 'POST', url: 'assets/validation?siteId=nosuchsite', json: { assetType: 'PAN', value: eligiblePan(1) } })).json().fields,
      ).toEqual({ siteId: 'invalid' });
      const malformed = await anonymous.call({ method: 'POST', url: `assets/validation?siteId=${SITE}`, json: { assetType: 'IBAN', value: 1 } });
      expect(malformed.statusCode).toBe(400);
    });

    it("ADR 0001 card settings apply as on the site's own validation path: an inactive card, a missing or unasked security code", async () => {
      const anonymous = await gateway.anonymous();
      const inactive = await anonymous.call({ method: 'POST', url: `assets/validation?siteId=${SITE}`, json: { assetType: 'PAN', value: '4622940000000007' } });
      expect(inactive.statusCode).toBe(400);
      expect(inactive.json()).toMatchObject({ error: 'CARD_NOT_ACTIVE', fields: { value: 'notActive' } });
      const unasked = await anonymous.call({
        method: 'POST',
        url: `assets/validation?siteId=${SITE}`,
        json: { assetType: 'PAN', value: eligiblePan(2), cvv: '123' },
      });
      expect(unasked.json().fields).toEqual({ cvv: 'notAsked' });
      const missing = await anonymous.call({ method: 'POST', url: 'assets/validation?siteId=sabana', json: { assetType: 'PAN', value: eligiblePan(2) } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().fields).toMatchObject({ cvv: 'required' });
    });

    it("ADR 0017: a signed-in caller validates for the session's site; naming another is 403 SITE_MISMATCH", async () => {
      const { browser } = await gateway.signedIn('emily@example.com', SITE);
      expect((await browser.call({ method: 'POST', url: 'assets/validation', json: { assetType: 'PAN', value: eligiblePan(3) } })).json()).toEqual({
        eligible: true,
        productType: 'C',
      });
      const other = await browser.call({ method: 'POST', url: `assets/validation?siteId=${OTHER_SITE}`, json: { assetType: 'PAN', value: eligiblePan(3) } });
      expect(other.statusCode).toBe(403);
      expect(other.json().error).toBe('SITE_MISMATCH');
    });

    it('ADR 0017 `public-site-bound`: the access hook holds a signed-in caller to its site as on every guarded route (the query and X-SITE-ID both, a malformed site id a 400)', async () => {
      const { browser } = await gateway.signedIn('emily@example.com', SITE);
      const json = { assetType: 'PAN', value: eligiblePan(3) };
      const byHeader = await browser.call({ method: 'POST', url: `assets/validation?siteId=${SITE}`, headers: { 'x-site-id': OTHER_SITE }, json });
      expect(byHeader.statusCode).toBe(403);
      expect(byHeader.json().error).toBe('SITE_MISMATCH');
      const malformed = await browser.call({ method: 'POST', url: 'assets/validation', headers: { 'x-site-id': 'no site!' }, json });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().fields).toEqual({ 'x-site-id': 'invalid' });
    });
  });

  describe('GET {locale}/account/configurations/promotions-{locale}.json', () => {
    it('SPEC §1: the promotions site of the locale, the same document the site-config service answers for it', async () => {
      const response = await gateway.app.inject({
        method: 'GET',
        url: '/en_us/account/configurations/promotions-en_us.json',
        headers: { host: 'promotions.example' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json().siteId).toBe('promotions_en_us');
      const service = await gateway.app.inject({ method: 'GET', url: '/api/site-config-service/config/site/promotions_en_us' });
      expect(response.json()).toEqual(service.json());
    });

    it.each([
      '/fr_fr/account/configurations/promotions-fr_fr.json',
      '/en_us/account/configurations/promotions-fr_fr.json',
      '/EN_US/account/configurations/promotions-EN_US.json',
      '/en_us/account/configurations/other.json',
    ])('%s is 404 PROMOTIONS_SITE_NOT_FOUND JSON, not the default site', async (url) => {
      const response = await gateway.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe('PROMOTIONS_SITE_NOT_FOUND');
    });
  });
});
