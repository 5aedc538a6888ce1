import { expect, it } from 'vitest';
import { describeEachDatabase } from '../support/database-legs';
import { ASSETS, eligiblePan, openCardsGatewayForEachTest, type CardsGateway, type RecordingBrowser } from './card-test-support';

/**
 * docs/decisions/0011-cards-api.md "Card data at rest and races": the limit and the single default
 * are decided under the user's row lock, and the unique fingerprint and the partial unique index
 * hold even without it, so parallel calls (two tabs, a double click) always end in a valid state.
 * On PostgreSQL the parallel calls really run on several connections at once.
 */
describeEachDatabase((leg) => {
  let gateway: CardsGateway;
  const used = new Set<string>();
  openCardsGatewayForEachTest(leg, used, (opened) => {
    gateway = opened;
  });

  const enrol = (browser: RecordingBrowser, siteId: string, pan: string) => {
    used.add(pan);
    return browser.call({ method: 'POST', url: ASSETS, json: { siteId, userAssetRequest: [{ assetType: 'PAN', value: pan }] } });
  };
  const cardsOf = async (userId: string) =>
    (await gateway.test.db.query<{ id: string; is_default: boolean }>('select id, is_default from assets where user_id = $1', [userId])).rows;

  it('20 parallel enrolments past the limit (firstbank: 5) end with exactly 5 cards and one default', async () => {
    const { browser, userId } = await gateway.signedIn('ana@example.com', 'firstbank');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => enrol(browser, 'firstbank', eligiblePan(500 + index))));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 409)).toHaveLength(15);
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) expect(refused.json().error).toBe('CARD_LIMIT_REACHED');
    const cards = await cardsOf(userId);
    expect(cards).toHaveLength(5);
    expect(cards.filter((card) => card.is_default)).toHaveLength(1);
  });

  it('the same card sent 10 times in parallel is stored once, the other calls are 409 CARD_DUPLICATE', async () => {
    const { browser, userId } = await gateway.signedIn('ana@example.com', 'firstbank');
    const pan = eligiblePan(900);
    const answers = await Promise.all(Array.from({ length: 10 }, () => enrol(browser, 'firstbank', pan)));
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toBe('CARD_DUPLICATE');
    }
    expect(await cardsOf(userId)).toEqual([{ id: expect.any(String), is_default: true }]);
  });

  it('parallel set-default calls on every card end with exactly one default', async () => {
    const { browser, userId } = await gateway.signedIn('ana@example.com', 'firstbank');
    for (let index = 0; index < 5; index++) expect((await enrol(browser, 'firstbank', eligiblePan(700 + index))).statusCode).toBe(201);
    const ids = (await cardsOf(userId)).map((card) => card.id);
    const answers = await Promise.all([...ids, ...ids].map((id) => browser.call({ method: 'POST', url: `${ASSETS}/${id}`, json: { isDefaultAsset: true } })));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect((await cardsOf(userId)).filter((card) => card.is_default)).toHaveLength(1);
  });

  it('parallel removals and set-defaults never leave a site without its default or remove the default', async () => {
    const { browser, userId } = await gateway.signedIn('ana@example.com', 'firstbank');
    for (let index = 0; index < 4; index++) expect((await enrol(browser, 'firstbank', eligiblePan(800 + index))).statusCode).toBe(201);
    const ids = (await cardsOf(userId)).map((card) => card.id);
    const answers = await Promise.all(
      ids.flatMap((id) => [
        browser.call({ method: 'POST', url: `${ASSETS}/${id}`, json: { isDefaultAsset: true } }),
        browser.call({ method: 'POST', url: `${ASSETS}/${id}/remove-asset` }),
      ]),
    );
    for (const answer of answers) expect([200, 404, 409]).toContain(answer.statusCode);
    const left = await cardsOf(userId);
    expect(left.length).toBeGreaterThanOrEqual(1);
    expect(left.filter((card) => card.is_default)).toHaveLength(1);
  });

  it('the database itself refuses a second default and card-number-shaped values (migrations 001, 007)', async () => {
    const { browser, userId } = await gateway.signedIn('ana@example.com', 'firstbank');
    await enrol(browser, 'firstbank', eligiblePan(1));
    await enrol(browser, 'firstbank', eligiblePan(2));
    const second = (await cardsOf(userId)).find((card) => !card.is_default);
    const db = gateway.test.db;
    await expect(db.query('update assets set is_default = true where id = $1', [second!.id])).rejects.toThrow(/assets_one_default_per_user_site/);
    // Built at run time so no card number sits in this file's text either.
    const longDigits = '4'.repeat(16);
    for (const [column, value, constraint] of [
      ['last_four', longDigits, 'value too long|assets_last_four_check'],
      ['vop_card_id', `vop_${longDigits}`, 'assets_vop_card_id_shape'],
      ['issuer_bid', longDigits, 'assets_issuer_bid_shape'],
      ['product_type', longDigits, 'assets_product_type_code'],
    ] as const) {
      await expect(db.query(`update assets set ${column} = $1 where id = $2`, [value, second!.id]), column).rejects.toThrow(new RegExp(constraint));
    }
  });
});
