import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/database-legs';
import { ASSETS, eligiblePan, openCardsGatewayForEachTest, VALIDATION, type CardsGateway, type RecordingBrowser } from './card-test-support';

/**
 * docs/decisions/0011-cards-api.md, every call's success and each refusal (SPEC §3 enrolled asset,
 * §4 card transitions, §5 card rules, §7 asset calls, §8 errors). After each test the database, the
 * logs and every answer are searched for card numbers (ADR 0011 "Card data at rest").
 */
const VISA = '4111111111111111';
const VISA_42 = '4242424242424242';
const VISA_4012 = '4012888888881881';
const GOLD = '4000056655665556';
/** fixtures/README.md: Luhn-valid, in a range marked not eligible. */
const INELIGIBLE = '4100000000000019';
const HARBOUR = '4444333322221111';

describeEachDatabase((leg) => {
  let gateway: CardsGateway;
  const used = new Set<string>([VISA, VISA_42, VISA_4012, GOLD, INELIGIBLE, HARBOUR]);
  openCardsGatewayForEachTest(leg, used, (opened) => {
    gateway = opened;
  });

  const validate = (browser: RecordingBrowser, json: unknown, query = '?siteId=firstbank', headers: Record<string, string> = {}) =>
    browser.call({ method: 'POST', url: `${VALIDATION}${query}`, json, headers });
  const enrol = (browser: RecordingBrowser, siteId: string, ...values: string[]) =>
    browser.call({ method: 'POST', url: ASSETS, json: { siteId, userAssetRequest: values.map((value) => ({ assetType: 'PAN', value })) } });
  const list = async (browser: RecordingBrowser, siteId?: string) => {
    const response = await browser.call({ method: 'GET', url: siteId === undefined ? ASSETS : `${ASSETS}/${siteId}` });
    expect(response.statusCode).toBe(200);
    return response.json<
      {
        assetId: string;
        isDefaultAsset: boolean;
        siteId: string;
        metadata: { name: string; value: string }[];
        cashbackStatus: string;
      }[]
    >();
  };
  const lastFours = (assets: { metadata: { name: string; value: string }[] }[]) =>
    assets.map((asset) => asset.metadata.find((entry) => entry.name === 'LAST_FOUR')?.value);
  const remove = (browser: RecordingBrowser, id: string) => browser.call({ method: 'POST', url: `${ASSETS}/${id}/remove-asset` });
  const setDefault = (browser: RecordingBrowser, id: string, json: unknown = { isDefaultAsset: true }) =>
    browser.call({ method: 'POST', url: `${ASSETS}/${id}`, json });
  const assetCount = async () => (await gateway.test.db.query<{ n: number }>('select count(*)::int as n from assets')).rows[0]!.n;

  describe('POST {assetsValidationUrl}?siteId', () => {
    it('ADR 0011: eligibility and product type from the BIN ranges, open without a session', async () => {
      const browser = await gateway.anonymous();
      for (const [pan, siteId, answer] of [
        [VISA, 'firstbank', { eligible: true, productType: 'C' }],
        [VISA_42, 'firstbank', { eligible: true, productType: 'F' }],
        [VISA_4012, 'firstbank', { eligible: true, productType: 'I' }],
        [GOLD, 'bancosol', { eligible: true, productType: 'P' }],
        [INELIGIBLE, 'firstbank', { eligible: false, productType: 'L' }],
        ['4917610000000000', 'firstbank', { eligible: false, productType: null }],
        [HARBOUR, 'harbourbank', { eligible: true, productType: 'G1' }],
        [HARBOUR, 'firstbank', { eligible: false, productType: 'F' }],
      ] as const) {
        used.add(pan);
        const response = await validate(browser, { assetType: 'PAN', value: pan }, `?siteId=${siteId}`);
        expect(response.statusCode, `${pan.slice(-4)} on ${siteId}`).toBe(200);
        expect(response.json()).toEqual(answer);
      }
    });

    it('takes the number in groups of four too, and the site from X-SITE-ID when the query has none (SPEC §7)', async () => {
      const browser = await gateway.anonymous();
      expect((await validate(browser, { assetType: 'PAN', value: '4111 1111 1111 1111' })).json()).toEqual({ eligible: true, productType: 'C' });
      expect((await validate(browser, { assetType: 'PAN', value: HARBOUR }, '', { 'x-site-id': 'harbourbank' })).json()).toEqual({
        eligible: true,
        productType: 'G1',
      });
      const noSite = await validate(browser, { assetType: 'PAN', value: VISA }, '');
      expect(noSite.statusCode).toBe(400);
      expect(noSite.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { siteId: 'required' } });
    });

    it.each([
      ['a wrong check digit', '4111111111111112'],
      ['15 digits', '411111111111111'],
      ['a number starting with 5', '5555555555554444'],
      ['letters', '4111-1111-1111-1111'],
      ['full-width digits', '４１１１１１１１１１１１１１１１'],
      ['an empty value', ''],
    ])('400 VALIDATION_FAILED naming value for %s, without repeating it', async (_name, value) => {
      used.add(value.replace(/\D/g, ''));
      const response = await validate(await gateway.anonymous(), { assetType: 'PAN', value });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { value: 'invalid' } });
      expect(response.headers['x-cid']).toEqual(expect.any(String));
    });

    it.each([
      ['a wrong assetType', 'assetType', { assetType: 'IBAN', value: VISA }],
      ['no assetType', 'assetType', { value: VISA }],
      ['a nested value', 'value', { assetType: 'PAN', value: { digits: [4, 1, 1, 1], deeper: { a: { b: {} } } } }],
      ['an over-long value', 'value', { assetType: 'PAN', value: '4'.repeat(5000) }],
      // `cvv` is the validation call's own member since capture_cvv (ADR 0001; tests/gateway/cards/card-settings.test.ts).
      ['an unknown member (the body itself is named)', '', { assetType: 'PAN', value: VISA, expiry: '12/29' }],
    ])('400 VALIDATION_FAILED for %s, naming %s', async (_name, field, body) => {
      const response = await validate(await gateway.anonymous(), body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('VALIDATION_FAILED');
      expect(Object.keys(response.json().fields as object)).toContain(field);
    });

    it('junk bodies are JSON errors, never a 500: a list, text, broken JSON, 2 MB', async () => {
      const browser = await gateway.anonymous();
      const answers = await Promise.all([
        browser.call({ method: 'POST', url: `${VALIDATION}?siteId=firstbank`, json: [VISA] }),
        browser.call({ method: 'POST', url: `${VALIDATION}?siteId=firstbank`, json: 'PAN' }),
        browser.call({ method: 'POST', url: `${VALIDATION}?siteId=firstbank`, headers: { 'content-type': 'application/json' } }),
        browser.call({ method: 'POST', url: `${VALIDATION}?siteId=firstbank`, json: { assetType: 'PAN', value: 'x'.repeat(2 * 1024 * 1024) } }),
      ]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([400, 400, 400, 413]);
      for (const answer of answers) expect(answer.json().error).toMatch(/^[A-Z_]+$/);
    });

    it('ADR 0008/0011: refused without the XSRF header', async () => {
      const browser = await gateway.anonymous();
      const response = await browser.call({
        method: 'POST',
        url: `${VALIDATION}?siteId=firstbank`,
        json: { assetType: 'PAN', value: VISA },
        withoutXsrfHeader: true,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('XSRF_TOKEN_MISSING');
    });

    it('ADR 0011: rate limited per IP (100 per 15 minutes), another IP is not affected', async () => {
      const browser = await gateway.anonymous('203.0.113.9');
      for (let call = 0; call < 100; call++) expect((await validate(browser, { assetType: 'PAN', value: VISA })).statusCode).toBe(200);
      const refused = await validate(browser, { assetType: 'PAN', value: VISA });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toBe('RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await validate(await gateway.anonymous('203.0.113.10'), { assetType: 'PAN', value: VISA })).statusCode).toBe(200);
      gateway.clock.advance(15 * 60);
      expect((await validate(browser, { assetType: 'PAN', value: VISA })).statusCode).toBe(200);
    });
  });

  describe('POST {assetsUrl} and the lists', () => {
    it('ADR 0011: 201 the new asset with its §3 metadata; the first card is the default; PENDING for a day, then ELIGIBLE', async () => {
      const { browser } = await gateway.signedIn('ana@example.com', 'firstbank');
      const response = await enrol(browser, 'firstbank', VISA);
      expect(response.statusCode).toBe(201);
      const [asset] = response.json<Record<string, unknown>[]>();
      expect(asset).toEqual({
        assetId: expect.any(String),
        id: asset!.assetId,
        siteId: 'firstbank',
        assetType: { name: 'PAN' },
        isDefaultAsset: true,
        defaultAsset: true,
        metadata: [
          { name: 'LAST_FOUR', value: '1111' },
          { name: 'PRODUCT_TYPE', value: 'C' },
          { name: 'VOP_CARD_ID', value: expect.stringMatching(/^vop_[A-Za-z0-9_-]{22}$/) },
          { name: 'ISSUER_BID', value: '10001111' },
        ],
        cashbackStatus: 'PENDING',
      });
      expect((await list(browser, 'firstbank')).map((card) => card.cashbackStatus)).toEqual(['PENDING']);
      gateway.clock.advance(24 * 3600);
      // A day outlives the session: sign in again.
      await browser.call({ method: 'POST', url: 'test-support/session', json: { email: 'ana@example.com', siteId: 'firstbank' } });
      expect((await list(browser, 'firstbank')).map((card) => card.cashbackStatus)).toEqual(['ELIGIBLE']);
    });

    it('keeps only last four, product type, fingerprint, card id and issuer in the database', async () => {
      const { browser, userId } = await gateway.signedIn('ana@example.com', 'firstbank');
      await enrol(browser, 'firstbank', '4111 1111 1111 1111');
      const { rows } = await gateway.test.db.query('select * from assets where user_id = $1', [userId]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        last_four: '1111',
        product_type: 'C',
        issuer_bid: '10001111',
        is_default: true,
        pan_fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      // The first six digits are not kept either (ADR 0011).
      expect(JSON.stringify(rows[0])).not.toContain('411111');
    });

    it("lists the default first, then oldest first; the site list holds that site only, and so does the list without a site: the session's (ADR 0017)", async () => {
      const { browser } = await gateway.signedIn('ana@example.com', 'firstbank');
      expect((await enrol(browser, 'firstbank', VISA)).statusCode).toBe(201);
      gateway.clock.advance(60);
      expect((await enrol(browser, 'firstbank', VISA_42, VISA_4012)).json().map((card: { isDefaultAsset: boolean }) => card.isDefaultAsset)).toEqual([
        false,
        false,
      ]);
      gateway.clock.advance(60);
      const onBancosol = await gateway.signedInOn('ana@example.com', 'bancosol');
      expect((await enrol(onBancosol, 'bancosol', GOLD)).statusCode).toBe(201);
      expect(lastFours(await list(onBancosol))).toEqual([GOLD.slice(-4)]);
      const firstbank = await list(browser, 'firstbank');
      expect(lastFours(firstbank)).toEqual(['1111', '4242', '1881']);
      expect(firstbank.map((card) => card.isDefaultAsset)).toEqual([true, false, false]);
      expect(firstbank.find((card) => lastFours([card])[0] === '1881')?.metadata.map((entry) => entry.name)).toEqual([
        'LAST_FOUR',
        'PRODUCT_TYPE',
        'VOP_CARD_ID',
        'ISSUER_BID',
      ]);

      const newDefault = firstbank[2]!.assetId;
      expect((await setDefault(browser, newDefault)).statusCode).toBe(200);
      expect(lastFours(await list(browser, 'firstbank'))).toEqual(['1881', '1111', '4242']);
      const withoutSite = await list(browser);
      expect(withoutSite.map((card) => card.siteId)).toEqual(['firstbank', 'firstbank', 'firstbank']);
      expect(withoutSite.filter((card) => card.isDefaultAsset).map((card) => lastFours([card])[0])).toEqual(['1881']);
    });

    it('400 VALIDATION_FAILED naming userAssetRequest.N.value; nothing is stored from a refused call', async () => {
      const { browser } = await gateway.signedIn('ana@example.com', 'firstbank');
      used.add('4111111111111112');
      const response = await enrol(browser, 'firstbank', VISA, '4111111111111112');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { 'userAssetRequest.1.value': 'invalid' } });
      expect(response.json().fields).not.toHaveProperty('userAssetRequest.0.value');
      expect(response.body).not.toContain('4111');
      expect(await assetCount()).toBe(0);
    });

    it.each([
      ['a wrong assetType', 'userAssetRequest.0.assetType', { siteId: 'firstbank', userAssetRequest: [{ assetType: 'IBAN', value: VISA }] }],
      ['no cards', 'userAssetRequest', { siteId: 'firstbank', userAssetRequest: [] }],
      [
        '11 cards',
        'userAssetRequest',
        { siteId: 'firstbank', userAssetRequest: Array.from({ length: 11 }, (_, index) => ({ assetType: 'PAN', value: eligiblePan(index) })) },
      ],
      ['no site', 'siteId', { userAssetRequest: [{ assetType: 'PAN', value: VISA }] }],
      ['a site id with markup', 'siteId', { siteId: '<b>x</b>', userAssetRequest: [{ assetType: 'PAN', value: VISA }] }],
      ['a unicode value', 'userAssetRequest.0.value', { siteId: 'firstbank', userAssetRequest: [{ assetType: 'PAN', value: '٤١١١١١١١١١١١١١١١' }] }],
      ['nested junk', 'userAssetRequest.0.value', { siteId: 'firstbank', userAssetRequest: [{ assetType: 'PAN', value: [[[{ a: 1 }]]] }] }],
      ['an unknown member of a card', 'userAssetRequest.0', { siteId: 'firstbank', userAssetRequest: [{ assetType: 'PAN', value: VISA, cvv: '123' }] }],
    ])('400 VALIDATION_FAILED for %s, naming %s', async (_name, field, body) => {
      const { browser } = await gateway.signedIn('ana@example.com', 'firstbank');
      for (let serial = 0; serial < 11; serial++) used.add(eligiblePan(serial));
      const response = await browser.call({ method: 'POST', url: ASSETS, json: body });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('VALIDATION_FAILED');
      expect(Object.keys(response.json().fields as object)).toContain(field);
      expect(await assetCount()).toBe(0);
    });

    it('400 CARD_NOT_ELIGIBLE for a card outside the eligible ranges', async () => {
      const { browser } = await gateway.signedIn('ana@example.com', 'firstbank');
      for (const pan of [INELIGIBLE, HARBOUR]) {
        const response = await enrol(browser, 'firstbank', pan);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: 'CARD_NOT_ELIGIBLE', fields: { 'userAssetRequest.0.value': 'notEligible' } });
      }
      // harbourbank's own range makes the same card eligible there.
      expect((await enrol(await gateway.signedInOn('ana@example.com', 'harbourbank'), 'harbourbank', HARBOUR)).statusCode).toBe(201);
    });

    it('409 CARD_DUPLICATE for a card already enrolled on the site, or twice in one call', async () => {
      const { browser } = await gateway.signedIn('ana@example.com', 'firstbank');
      expect((await enrol(browser, 'firstbank', VISA)).statusCode).toBe(201);
      const again = await enrol(browser, 'firstbank', '4111 1111 1111 1111');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: 'CARD_DUPLICATE', fields: { 'userAssetRequest.0.value': 'duplicate' } });
      const twice = await enrol(browser, 'firstbank', VISA_42, VISA_42);
      expect(twice.statusCode).toBe(409);
      // Exact fields (ADR 0011 `userAssetRequest.N.value`): the first naming of the card is no duplicate, only the second
      // is. A subset match would also pass when the in-request check missed it and the unique index flagged every card.
      expect(twice.json().error).toBe('CARD_DUPLICATE');
      expect(twice.json().fields).toEqual({ 'userAssetRequest.1.value': 'duplicate' });
      expect(await assetCount()).toBe(1);
      // Another account holding the same number is the other rule (one-account-per-card.test.ts).
      const other = await gateway.signedIn('bea@example.com', 'firstbank');
      expect((await enrol(other.browser, 'firstbank', VISA)).json()).toMatchObject({ error: 'CARD_NOT_AVAILABLE' });
    });

    it('409 CARD_LIMIT_REACHED past pan_capture.limit (northbank: 2), counting the cards already there', async () => {
      const { browser } = await gateway.signedIn('nora@example.com', 'northbank');
      expect((await enrol(browser, 'northbank', eligiblePan(1))).statusCode).toBe(201);
      const past = await enrol(browser, 'northbank', eligiblePan(2), eligiblePan(3));
      expect(past.statusCode).toBe(409);
      expect(past.json()).toMatchObject({ error: 'CARD_LIMIT_REACHED', limit: 2 });
      expect((await enrol(browser, 'northbank', eligiblePan(2))).statusCode).toBe(201);
      expect((await enrol(browser, 'northbank', eligiblePan(3))).json().error).toBe('CARD_LIMIT_REACHED');
      expect(lastFours(await list(browser, 'northbank'))).toHaveLength(2);
      for (let serial = 1; serial <= 3; serial++) used.add(eligiblePan(serial));
    });

    it('SPEC §9 "limit default maximum safe integer": eurobank has no limit and takes 25 cards', async () => {
      const { browser } = await gateway.signedIn('lukas@example.com', 'eurobank');
      for (let batch = 0; batch < 5; batch++) {
        const pans = Array.from({ length: 5 }, (_, index) => eligiblePan(100 + batch * 5 + index));
        pans.forEach((pan) => used.add(pan));
        expect((await enrol(browser, 'eurobank', ...pans)).statusCode).toBe(201);
      }
      expect(await list(browser, 'eurobank')).toHaveLength(25);
    });

    it('401 UNAUTHENTICATED signed out, for the lists and the enrolment; 403 without the XSRF header', async () => {
      const browser = await gateway.anonymous();
      expect((await browser.call({ method: 'GET', url: ASSETS })).statusCode).toBe(401);
      expect((await browser.call({ method: 'GET', url: `${ASSETS}/firstbank` })).statusCode).toBe(401);
      const signedOut = await enrol(browser, 'firstbank', VISA);
      expect(signedOut.statusCode).toBe(401);
      expect(signedOut.json().error).toBe('UNAUTHENTICATED');
      const { browser: signedIn } = await gateway.signedIn('ana@example.com', 'firstbank');
      const noXsrf = await signedIn.call({
        method: 'POST',
        url: ASSETS,
        json: { siteId: 'firstbank', userAssetRequest: [{ assetType: 'PAN', value: VISA }] },
        withoutXsrfHeader: true,
      });
      expect(noXsrf.statusCode).toBe(403);
      expect(await assetCount()).toBe(0);
    });
  });

  describe('POST {assetsUrl}/{id}/remove-asset', () => {
    it('200 { removed: true } for a card that is neither the default nor the last; it leaves the list', async () => {
      const { browser } = await gateway.signedIn('ana@example.com', 'firstbank');
      const [, second] = (await enrol(browser, 'firstbank', VISA, VISA_42)).json<{ assetId: string }[]>();
      const response = await remove(browser, second!.assetId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ removed: true });
      expect(lastFours(await list(browser, 'firstbank'))).toEqual(['1111']);
      // The same number can be enrolled again once removed.
      expect((await enrol(browser, 'firstbank', VISA_42)).statusCode).toBe(201);
    });

    it('takes any body, or none (SPEC §7 "empty")', async () => {
      const { browser } = await gateway.signedIn('ana@example.com', 'firstbank');
      const [, second, third] = (await enrol(browser, 'firstbank', VISA, VISA_42, VISA_4012)).json<{ assetId: string }[]>();
      expect((await browser.call({ method: 'POST', url: `${ASSETS}/${second!.assetId}/remove-asset`, json: {} })).statusCode).toBe(200);
      expect(
        (await browser.call({ method: 'POST', url: `${ASSETS}/${third!.assetId}/remove-asset`, headers: { 'content-type': 'application/json' } })).statusCode,
      ).toBe(200);
    });

    it('409 LAST_CARD for the only card also where cards are optional, as the browser says (one rule, removalRefusal); 409 DEFAULT_CARD for the default card', async () => {
      const { browser } = await gateway.signedIn('ana@example.com', 'firstbank');
      const [first] = (await enrol(browser, 'firstbank', VISA)).json<{ assetId: string }[]>();
      const only = await remove(browser, first!.assetId);
      expect(only.statusCode).toBe(409);
      expect(only.json().error).toBe('LAST_CARD');
      await enrol(browser, 'firstbank', VISA_42);
      expect((await remove(browser, first!.assetId)).json().error).toBe('DEFAULT_CARD');
      expect(await list(browser, 'firstbank')).toHaveLength(2);
    });

    it('409 LAST_CARD for the only card where cards are not optional (sabana)', async () => {
      const { browser } = await gateway.signedIn('val@example.com', 'sabana');
      const [first] = (await enrol(browser, 'sabana', VISA)).json<{ assetId: string }[]>();
      const response = await remove(browser, first!.assetId);
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe('LAST_CARD');
      expect(await list(browser, 'sabana')).toHaveLength(1);
    });

    it("404 CARD_NOT_FOUND for another user's card, an unknown id or a malformed one; 401 signed out", async () => {
      const owner = await gateway.signedIn('ana@example.com', 'firstbank');
      const [, second] = (await enrol(owner.browser, 'firstbank', VISA, VISA_42)).json<{ assetId: string }[]>();
      const { browser: intruder } = await gateway.signedIn('eve@example.com', 'firstbank');
      for (const id of [second!.assetId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' or '1'='1"]) {
        const response = await remove(intruder, encodeURIComponent(id));
        expect(response.statusCode, id).toBe(404);
        expect(response.json().error).toBe('CARD_NOT_FOUND');
      }
      expect((await remove(await gateway.anonymous(), second!.assetId)).statusCode).toBe(401);
      expect(await list(owner.browser, 'firstbank')).toHaveLength(2);
    });
  });

  describe('POST {updateAssetUrl}: set as default', () => {
    it('200 the asset, now the only default of the site (SPEC §4 "Setting a default marks only that card")', async () => {
      const { browser } = await gateway.signedIn('ana@example.com', 'firstbank');
      const [first, second] = (await enrol(browser, 'firstbank', VISA, VISA_42)).json<{ assetId: string }[]>();
      const response = await setDefault(browser, second!.assetId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ assetId: second!.assetId, isDefaultAsset: true, defaultAsset: true });
      const cards = await list(browser, 'firstbank');
      expect(cards.filter((card) => card.isDefaultAsset).map((card) => card.assetId)).toEqual([second!.assetId]);
      // The old default can now be removed.
      expect((await remove(browser, first!.assetId)).statusCode).toBe(200);
      // Setting the default again is harmless.
      expect((await setDefault(browser, second!.assetId)).statusCode).toBe(200);
    });

    it('403 CARD_UPDATE_NOT_ALLOWED where pan_update_allowed is "false" (harbourbank)', async () => {
      const { browser } = await gateway.signedIn('tai@example.com', 'harbourbank');
      const [, second] = (await enrol(browser, 'harbourbank', HARBOUR, VISA)).json<{ assetId: string }[]>();
      const response = await setDefault(browser, second!.assetId);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('CARD_UPDATE_NOT_ALLOWED');
      expect((await list(browser, 'harbourbank')).map((card) => card.isDefaultAsset)).toEqual([true, false]);
    });

    it("400 for any body but { isDefaultAsset: true }; 404 for another user's card; 401 signed out", async () => {
      const owner = await gateway.signedIn('ana@example.com', 'firstbank');
      const [, second] = (await enrol(owner.browser, 'firstbank', VISA, VISA_42)).json<{ assetId: string }[]>();
      for (const body of [{ isDefaultAsset: false }, {}, { isDefaultAsset: true, extra: 1 }, ['x']]) {
        const response = await setDefault(owner.browser, second!.assetId, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().error).toBe('VALIDATION_FAILED');
      }
      const { browser: intruder } = await gateway.signedIn('eve@example.com', 'firstbank');
      expect((await setDefault(intruder, second!.assetId)).json()).toMatchObject({ error: 'CARD_NOT_FOUND' });
      expect((await setDefault(await gateway.anonymous(), second!.assetId)).statusCode).toBe(401);
      expect((await list(owner.browser, 'firstbank')).map((card) => card.isDefaultAsset)).toEqual([true, false]);
    });
  });

  it('ADR 0011 "Consequences": registration stores its cards through the enrolment code (product type, card id, first default)', async () => {
    const browser = await gateway.anonymous();
    const user = {
      title: 'mr',
      first_name: 'Ana',
      last_name: 'Silva',
      email: 'reg@example.com',
      password: 'Rewards#2025x',
      confirm_password: 'Rewards#2025x',
      dob: '1990-04-12',
      phone: '(202) 555-0143',
      nationalId: '536220871',
      ninedigitbin: '411111111',
      marketing_opt_ins: { email: true },
      pp: true,
    };
    const response = await browser.call({
      method: 'POST',
      url: 'user-mgmt/user/registration',
      json: { siteId: 'firstbank', locale: 'en_us', user, cards: [{ pan: '4242 4242 4242 4242' }, { pan: '4012 8888 8888 1881' }] },
      headers: { 'x-hcaptcha-token': 'test-captcha-token' },
    });
    expect(response.statusCode).toBe(202);
    const { rows } = await gateway.test.db.query<{ last_four: string; product_type: string; vop_card_id: string | null; is_default: boolean }>(
      'select a.last_four, a.product_type, a.vop_card_id, a.is_default from assets a join users u on u.id = a.user_id where u.email = $1 order by a.is_default desc',
      ['reg@example.com'],
    );
    expect(rows.map(({ vop_card_id, ...card }) => ({ ...card, eligible: vop_card_id !== null }))).toEqual([
      { last_four: '4242', product_type: 'F', is_default: true, eligible: true },
      { last_four: '1881', product_type: 'I', is_default: false, eligible: true },
    ]);
    // SPEC §3 cashback status once the day of PENDING is over. (An ineligible card is refused at sign-up:
    // tests/gateway/account/registration.test.ts.)
    gateway.clock.advance(24 * 3600);
    await browser.call({ method: 'POST', url: 'test-support/session', json: { email: 'reg@example.com', siteId: 'firstbank' } });
    expect((await list(browser, 'firstbank')).map((card) => [lastFours([card])[0], card.cashbackStatus])).toEqual([
      ['4242', 'ELIGIBLE'],
      ['1881', 'ELIGIBLE'],
    ]);
  });
});
