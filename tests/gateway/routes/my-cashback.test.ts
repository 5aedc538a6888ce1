import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Database } from '../../../gateway/db/database';
import { seedDemoCashback } from '../../../gateway/db/seed-demo-data';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import { buildGateway } from '../../../gateway/server';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { TestBrowser } from '../support/test-browser';
import { realFixtures } from '../support/test-gateway';

/**
 * ADR 0010 "Cashback statement": `GET my-cashback/{siteId}` answers the demo lines of
 * `fixtures/cashback/*.json`, seeded for the demo users by e-mail, newest first with totals per
 * currency and SPEC §3 status. A card appears as its last four digits only.
 */
async function insertDemoPerson(
  db: Database,
  email: string,
  siteId: string,
  cardsLastFour: string[],
): Promise<{ userId: string; assetIds: Map<string, string> }> {
  const inserted = await db.query<{ id: string }>(
    `insert into users (email, password_hash, first_name, last_name, status, roles) values ($1, 'not-a-real-hash', 'Demo', 'Person', 'ACTIVE', '{ROLE_CARDHOLDER}') returning id`,
    [email],
  );
  const userId = inserted.rows[0]!.id;
  await db.query('insert into user_sites (user_id, site_id) values ($1, $2)', [userId, siteId]);
  const assetIds = new Map<string, string>();
  for (const [index, lastFour] of cardsLastFour.entries()) {
    const asset = await db.query<{ id: string }>(
      `insert into assets (user_id, site_id, last_four, product_type, pan_fingerprint, is_default) values ($1, $2, $3, 'C', $4, $5) returning id`,
      [userId, siteId, lastFour, String(index).repeat(64), index === 0],
    );
    assetIds.set(lastFour, asset.rows[0]!.id);
  }
  return { userId, assetIds };
}

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let fixtures: Fixtures;
  let emilyAssets: Map<string, string>;

  beforeEach(async () => {
    test = await leg.openMigrated();
    fixtures = await realFixtures();
    app = await buildGateway({ db: test.db, fixtures, testMode: true });
    emilyAssets = (await insertDemoPerson(test.db, 'emily.carter@example.com', 'firstbank', ['1111'])).assetIds;
    await insertDemoPerson(test.db, 'ana.souza@example.com', 'bancosol', ['5556']);
    await insertDemoPerson(test.db, 'mariam.alkuwari@example.com', 'dohabank', ['1881']);
    await insertDemoPerson(test.db, 'sophie.tremblay@example.com', 'northbank', ['0008', '0002']);
    await insertDemoPerson(test.db, 'riley.morgan@example.com', 'firstbank', []);
  });
  afterEach(async () => {
    await app.close();
    await test.dispose();
  });

  async function statementOf(email: string, siteId: string) {
    const browser = new TestBrowser(app);
    await browser.call({ method: 'POST', url: 'test-support/session', json: { email, siteId } });
    return browser.call({ method: 'GET', url: `my-cashback/${siteId}` });
  }

  it('seeds every line of the cashback fixtures once, for the demo users found by e-mail', async () => {
    const lineCount = fixtures.cashbackStatements.reduce((sum, statement) => sum + statement.lines.length, 0);
    expect(fixtures.cashbackStatements.length).toBeGreaterThanOrEqual(4);
    expect(await seedDemoCashback(test.db, fixtures.cashbackStatements)).toBe(lineCount);
    expect(await seedDemoCashback(test.db, fixtures.cashbackStatements)).toBe(0);
    const stored = await test.db.query<{ count: number }>('select count(*)::int as count from cashback_lines');
    expect(stored.rows[0]?.count).toBe(lineCount);
  });

  it('answers Emily (firstbank, USD) her lines newest first, each card as last four linked to her enrolled card', async () => {
    await seedDemoCashback(test.db, fixtures.cashbackStatements);
    const response = await statementOf('emily.carter@example.com', 'firstbank');
    expect(response.statusCode).toBe(200);
    const statement = response.json();
    expect(statement.siteId).toBe('firstbank');
    expect(statement.lines.map((line: { date: string }) => line.date)).toEqual(['2026-11-14', '2026-11-02', '2026-10-21', '2026-10-09', '2026-09-18']);
    expect(statement.lines[1]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      assetId: emilyAssets.get('1111'),
      lastFour: '1111',
      productType: 'C',
      merchant: 'Delta Air Lines',
      date: '2026-11-02',
      amountMinor: 4250,
      currency: 'USD',
      status: 'ELIGIBLE',
    });
    // A card no longer enrolled keeps its lines, with no asset.
    expect(statement.lines[4]).toMatchObject({ lastFour: '5454', assetId: null });
  });

  it('totals one entry per currency and status, summing amounts and counting lines', async () => {
    await seedDemoCashback(test.db, fixtures.cashbackStatements);
    const emily = (await statementOf('emily.carter@example.com', 'firstbank')).json();
    expect(emily.totals).toEqual([
      { currency: 'USD', status: 'ELIGIBLE', amountMinor: 4250 + 860 + 275, count: 3 },
      { currency: 'USD', status: 'PENDING', amountMinor: 125, count: 1 },
      { currency: 'USD', status: 'NOT_ELIGIBLE', amountMinor: 300, count: 1 },
    ]);
  });

  it.each([
    ['ana.souza@example.com', 'bancosol', 'BRL'],
    ['mariam.alkuwari@example.com', 'dohabank', 'QAR'],
    ['sophie.tremblay@example.com', 'northbank', 'CAD'],
  ])('answers %s on %s in %s with all three SPEC §3 statuses', async (email, siteId, currency) => {
    await seedDemoCashback(test.db, fixtures.cashbackStatements);
    const statement = (await statementOf(email, siteId)).json();
    expect(statement.lines.length).toBeGreaterThanOrEqual(3);
    expect(new Set(statement.lines.map((line: { currency: string }) => line.currency))).toEqual(new Set([currency]));
    expect(statement.totals.map((total: { status: string }) => total.status)).toEqual(['ELIGIBLE', 'PENDING', 'NOT_ELIGIBLE']);
  });

  it('answers an empty statement to a person without lines, and none of another site', async () => {
    await seedDemoCashback(test.db, fixtures.cashbackStatements);
    expect((await statementOf('riley.morgan@example.com', 'firstbank')).json()).toEqual({ siteId: 'firstbank', lines: [], totals: [] });
    expect((await statementOf('emily.carter@example.com', 'bancosol')).json()).toEqual({ siteId: 'bancosol', lines: [], totals: [] });
  });

  it('never holds or answers a demo card number, only last four digits', async () => {
    await seedDemoCashback(test.db, fixtures.cashbackStatements);
    const pans = fixtures.demoUsers.flatMap((user) => user.cards.map((card) => card.pan.replace(/\s/g, '')));
    const stored = JSON.stringify((await test.db.query('select * from cashback_lines')).rows);
    for (const [email, siteId] of [
      ['emily.carter@example.com', 'firstbank'],
      ['sophie.tremblay@example.com', 'northbank'],
    ] as const) {
      const text = (await statementOf(email, siteId)).body;
      for (const pan of pans) {
        expect(text).not.toContain(pan);
        expect(stored).not.toContain(pan);
      }
      expect(text).not.toMatch(/"lastFour":"\d{5,}"/);
    }
  });

  // ADR 0001 `cashback_enabled`: a programme without cashback has no statement, not an empty one.
  it('answers 404 NO_CASHBACK_STATEMENT on a site whose programme has no cashback (tejobank)', async () => {
    await insertDemoPerson(test.db, 'joao.silva@example.com', 'tejobank', ['4444']);
    const response = await statementOf('joao.silva@example.com', 'tejobank');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ error: 'NO_CASHBACK_STATEMENT', message: 'The programme of site tejobank has no cashback statement.' });
  });

  it('refuses a malformed site id in the path', async () => {
    const browser = new TestBrowser(app);
    await browser.call({ method: 'POST', url: 'test-support/session', json: { email: 'emily.carter@example.com', siteId: 'firstbank' } });
    const response = await browser.call({ method: 'GET', url: 'my-cashback/First%20Bank' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('VALIDATION_FAILED');
  });
});
