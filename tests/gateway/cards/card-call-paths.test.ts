import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cardCallRoutes } from '../../../gateway/cards/card-call-paths';
import { buildGateway } from '../../../gateway/server';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { insertUser, TestBrowser } from '../support/test-browser';
import { realFixtures, stubDatabase, withXsrf } from '../support/test-gateway';
import { ASSETS, fixturesWithAltbank, PASSWORD, VALIDATION } from './card-test-support';

const VISA = '4111111111111111';
const VISA_42 = '4242424242424242';

describe('cardCallRoutes', () => {
  it('every fixture uses the same URLs today: one route per call, answering every site and the default site', async () => {
    const real = await realFixtures();
    const routes = cardCallRoutes(real);
    expect(routes.map(({ call, path }) => `${call} ${path}`).sort()).toEqual([
      `enrol ${ASSETS}`,
      `remove ${ASSETS}/:id/remove-asset`,
      `setDefault ${ASSETS}/:id`,
      `validate ${VALIDATION}`,
    ]);
    for (const route of routes) expect([...route.siteIds].sort()).toEqual([...real.sites.keys(), 'default'].sort());
  });

  it('a site with other URLs adds its own routes, answering that site only', async () => {
    const routes = cardCallRoutes(await fixturesWithAltbank());
    const alt = routes.filter((route) => route.path.startsWith('cards/v2/'));
    expect(alt.map(({ call, path, siteIds }) => [call, path, [...siteIds]])).toEqual([
      ['validate', 'cards/v2/eligibility', ['altbank']],
      ['enrol', 'cards/v2/assets', ['altbank']],
      ['remove', 'cards/v2/assets/:id/remove-asset', ['altbank']],
      ['setDefault', 'cards/v2/assets/:id/default', ['altbank']],
    ]);
  });
});

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let app: FastifyInstance;
  beforeEach(async () => {
    test = await leg.openMigrated();
    app = await buildGateway({ db: test.db, fixtures: await fixturesWithAltbank(), testMode: true });
  });
  afterEach(async () => {
    await app.close();
    await test.dispose();
  });

  const signedIn = async (email: string, siteId: string) => {
    await insertUser(test.db, { email, password: PASSWORD, siteId });
    const browser = await new TestBrowser(app).open();
    expect((await browser.call({ method: 'POST', url: 'test-support/session', json: { email, siteId } })).statusCode).toBe(200);
    return browser;
  };
  const pan = (value: string) => [{ assetType: 'PAN', value }];

  it("DESIGN 'adding a site = adding files': a site's own pan_capture URLs serve all four card calls", async () => {
    const browser = await signedIn('alt@example.com', 'altbank');
    const validation = await browser.call({ method: 'POST', url: 'cards/v2/eligibility?siteId=altbank', json: { assetType: 'PAN', value: VISA } });
    expect(validation.json()).toEqual({ eligible: true, productType: 'C' });
    const enrolled = await browser.call({
      method: 'POST',
      url: 'cards/v2/assets',
      json: { siteId: 'altbank', userAssetRequest: [...pan(VISA), ...pan(VISA_42)] },
    });
    expect(enrolled.statusCode).toBe(201);
    const [, second] = enrolled.json<{ assetId: string }[]>();
    expect((await browser.call({ method: 'POST', url: `cards/v2/assets/${second!.assetId}/default`, json: { isDefaultAsset: true } })).statusCode).toBe(200);
    const [first] = enrolled.json<{ assetId: string }[]>();
    expect((await browser.call({ method: 'POST', url: `cards/v2/assets/${first!.assetId}/remove-asset` })).json()).toEqual({ removed: true });
    const listed = await browser.call({ method: 'GET', url: `${ASSETS}/altbank` });
    expect(listed.json<{ assetId: string }[]>().map((card) => card.assetId)).toEqual([second!.assetId]);
  });

  it("a path answers only the sites that configure it: 404 NOT_FOUND for another site's cards", async () => {
    const alt = await signedIn('alt@example.com', 'altbank');
    const validation = await alt.call({ method: 'POST', url: `${VALIDATION}?siteId=altbank`, json: { assetType: 'PAN', value: VISA } });
    expect(validation.statusCode).toBe(404);
    expect(validation.json().error).toBe('NOT_FOUND');
    expect((await alt.call({ method: 'POST', url: ASSETS, json: { siteId: 'altbank', userAssetRequest: pan(VISA) } })).statusCode).toBe(404);

    const first = await signedIn('ana@example.com', 'firstbank');
    const [, card] = (await first.call({ method: 'POST', url: ASSETS, json: { siteId: 'firstbank', userAssetRequest: [...pan(VISA), ...pan(VISA_42)] } })).json<
      { assetId: string }[]
    >();
    expect((await first.call({ method: 'POST', url: `cards/v2/assets/${card!.assetId}/remove-asset` })).statusCode).toBe(404);
    expect((await first.call({ method: 'POST', url: `cards/v2/assets/${card!.assetId}/default`, json: { isDefaultAsset: true } })).statusCode).toBe(404);
    expect((await first.call({ method: 'GET', url: `${ASSETS}/firstbank` })).json()).toHaveLength(2);
  });

  describe('test mode: POST test-support/fail-next { method, path, status } (ADR 0011)', () => {
    it('the next matching call answers that status once, as a JSON error with its X-CID; nothing is stored', async () => {
      const browser = await signedIn('ana@example.com', 'firstbank');
      const armed = await browser.call({ method: 'POST', url: 'test-support/fail-next', json: { method: 'POST', path: ASSETS, status: 500 } });
      expect(armed.json()).toEqual({ armed: true });
      const body = { siteId: 'firstbank', userAssetRequest: pan(VISA) };
      const failed = await browser.call({ method: 'POST', url: ASSETS, json: body, headers: { 'x-cid': 'test-cid-0001' } });
      expect(failed.statusCode).toBe(500);
      expect(failed.headers['x-cid']).toBe('test-cid-0001');
      expect(failed.json()).toEqual({ error: 'INJECTED_FAILURE', message: expect.stringContaining('500') });
      expect((await test.db.query('select id from assets')).rows).toHaveLength(0);
      expect((await browser.call({ method: 'POST', url: ASSETS, json: body })).statusCode).toBe(201);
    });

    it('matches any method and path of either base; `*` stands for one segment (a card id); the query is ignored', async () => {
      const browser = await signedIn('ana@example.com', 'firstbank');
      const [, card] = (
        await browser.call({ method: 'POST', url: ASSETS, json: { siteId: 'firstbank', userAssetRequest: [...pan(VISA), ...pan(VISA_42)] } })
      ).json<{ assetId: string }[]>();
      for (const failure of [
        { method: 'GET', path: `${ASSETS}/firstbank`, status: 503 },
        { method: 'POST', path: VALIDATION, status: 502 },
        { method: 'POST', path: `${ASSETS}/*/remove-asset`, status: 524 },
        { method: 'POST', path: `${ASSETS}/*`, status: 500 },
      ]) {
        await browser.call({ method: 'POST', url: 'test-support/fail-next', json: failure });
      }
      expect((await browser.call({ method: 'GET', url: `${ASSETS}/firstbank` })).statusCode).toBe(503);
      expect((await browser.call({ method: 'POST', url: `${VALIDATION}?siteId=firstbank`, json: { assetType: 'PAN', value: VISA } })).statusCode).toBe(502);
      expect((await browser.call({ method: 'POST', url: `${ASSETS}/${card!.assetId}/remove-asset` })).statusCode).toBe(524);
      expect((await browser.call({ method: 'POST', url: `${ASSETS}/${card!.assetId}`, json: { isDefaultAsset: true } })).statusCode).toBe(500);
      // Each was used once: the same calls now succeed.
      expect((await browser.call({ method: 'POST', url: `${ASSETS}/${card!.assetId}`, json: { isDefaultAsset: true } })).statusCode).toBe(200);
      const gatewayBase = new TestBrowser(app, '198.51.100.7', '/gateway/api');
      await browser.call({ method: 'POST', url: 'test-support/fail-next', json: { method: 'GET', path: ASSETS, status: 500 } });
      expect((await gatewayBase.call({ method: 'GET', url: ASSETS })).statusCode).toBe(500);
    });

    it('refuses a status outside 400–599 or an unknown method', async () => {
      const browser = await signedIn('ana@example.com', 'firstbank');
      for (const json of [
        { method: 'POST', path: ASSETS, status: 200 },
        { method: 'TRACE', path: ASSETS, status: 500 },
        { method: 'POST', status: 500 },
      ]) {
        expect((await browser.call({ method: 'POST', url: 'test-support/fail-next', json })).statusCode).toBe(400);
      }
    });
  });
});

it('the production gateway (not in test mode) has no fail-next hook', async () => {
  const production = await buildGateway({ db: stubDatabase, fixtures: await realFixtures() });
  try {
    const response = await production.inject({
      method: 'POST',
      url: '/api/test-support/fail-next',
      payload: { method: 'GET', path: ASSETS, status: 500 },
      headers: withXsrf(),
    });
    expect(response.statusCode).toBe(404);
  } finally {
    await production.close();
  }
});
