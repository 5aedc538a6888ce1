import { describe, expect, it } from 'vitest';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import { payloadErrors } from '../../../gateway/forms/validate-payload';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { findSecrets } from '../../security/secrecy-scan';
import { describeEachDatabase } from '../support/database-legs';
import { realFixtures } from '../support/test-gateway';
import { ASSETS, openCardsGatewayForEachTest, VALIDATION, type CardsGateway, type RecordingBrowser } from './card-test-support';

/**
 * ADR 0001 "Card settings", enforced by the gateway: `check_card_active_status` refuses a card of an
 * inactive BIN range at the validation call, at enrolment and at registration (CARD_NOT_ACTIVE / notActive),
 * `capture_cvv` makes the validation call take exactly three digits and nothing else keeps them, and
 * `six_digit_verification` checks a bin's six digits against the BIN table. Each test ends with the cards
 * suite's search for card numbers in the database, the logs and every answer.
 */
const VISA = '4111111111111111';
/** fixtures/bin-ranges.json: eligible, product C, in the range marked inactive. */
const INACTIVE = '4622940000000007';
const CVV = '737';

describeEachDatabase((leg) => {
  let gateway: CardsGateway;
  const used = new Set<string>([VISA, INACTIVE]);
  openCardsGatewayForEachTest(leg, used, (opened) => {
    gateway = opened;
  });

  const validate = (browser: RecordingBrowser, siteId: string, json: unknown) => browser.call({ method: 'POST', url: `${VALIDATION}?siteId=${siteId}`, json });
  const enrol = (browser: RecordingBrowser, siteId: string, value: string) =>
    browser.call({ method: 'POST', url: ASSETS, json: { siteId, userAssetRequest: [{ assetType: 'PAN', value }] } });
  const assetCount = async () => (await gateway.test.db.query<{ n: number }>('select count(*)::int as n from assets')).rows[0]!.n;

  describe('check_card_active_status', () => {
    it('validation: 400 CARD_NOT_ACTIVE naming value on firstbank (setting "true"); eurobank ("false") answers eligible', async () => {
      const browser = await gateway.anonymous();
      const refused = await validate(browser, 'firstbank', { assetType: 'PAN', value: INACTIVE });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'CARD_NOT_ACTIVE', fields: { value: 'notActive' } });
      expect(refused.headers['x-cid']).toEqual(expect.any(String));
      const accepted = await validate(browser, 'eurobank', { assetType: 'PAN', value: INACTIVE });
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json()).toEqual({ eligible: true, productType: 'C' });
      // An active card is untouched by the setting.
      expect((await validate(browser, 'firstbank', { assetType: 'PAN', value: VISA })).json()).toEqual({ eligible: true, productType: 'C' });
    });

    it('enrolment: refused on firstbank and nothing stored; enrolled on eurobank', async () => {
      const { browser } = await gateway.signedIn('ines@example.com', 'firstbank');
      const refused = await enrol(browser, 'firstbank', INACTIVE);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'CARD_NOT_ACTIVE', fields: { 'userAssetRequest.0.value': 'notActive' } });
      expect(await assetCount()).toBe(0);
      const { browser: euro } = await gateway.signedIn('jonas@example.com', 'eurobank');
      expect((await enrol(euro, 'eurobank', INACTIVE)).statusCode).toBe(201);
      expect(await assetCount()).toBe(1);
    });

    it('registration: the inactive card is named (cards.0.pan notActive) and no account is queued', async () => {
      const browser = await gateway.anonymous();
      const answer = await browser.call({
        method: 'POST',
        url: 'user-mgmt/user/registration',
        headers: { 'x-hcaptcha-token': 'test-token' },
        json: { siteId: 'northbank', locale: 'fr_ca', user: {}, cards: [{ pan: INACTIVE }] },
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { 'cards.0.pan': 'notActive' } });
      expect((await gateway.test.db.query<{ n: number }>('select count(*)::int as n from users')).rows[0]!.n).toBe(0);
    });
  });

  describe('capture_cvv', () => {
    it('sabana: three digits pass; the answer never repeats the code', async () => {
      const browser = await gateway.anonymous();
      const answer = await validate(browser, 'sabana', { assetType: 'PAN', value: VISA, cvv: CVV });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ eligible: true, productType: 'C' });
    });

    it.each([
      ['no code', undefined, 'required'],
      ['an empty code', '', 'required'],
      ['two digits', '12', 'invalid'],
      ['five digits', '12345', 'invalid'],
      ['letters', '7a7', 'invalid'],
    ])('sabana: 400 VALIDATION_FAILED naming cvv for %s (%s), with the expected shape', async (_name, cvv, key) => {
      const browser = await gateway.anonymous();
      const answer = await validate(browser, 'sabana', { assetType: 'PAN', value: VISA, ...(cvv === undefined ? {} : { cvv }) });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { cvv: key } });
      if (key === 'invalid')
        expect(answer.json().expectedFormat).toEqual({ cvv: { hintKey: 'hint.digits', errorKey: 'expected.digits', values: { count: 3 } } });
      if (cvv) expect(answer.body).not.toContain(`"${cvv}"`);
    });

    it('a bad number and a bad code are named together', async () => {
      const answer = await validate(await gateway.anonymous(), 'sabana', { assetType: 'PAN', value: '4111111111111112', cvv: '12' });
      expect(answer.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { value: 'invalid', cvv: 'invalid' } });
    });

    it('a site that asks no code refuses one (never taken silently), and the enrolment call never takes one', async () => {
      const browser = await gateway.anonymous();
      const answer = await validate(browser, 'firstbank', { assetType: 'PAN', value: VISA, cvv: CVV });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { cvv: 'notAsked' } });
      const { browser: holder } = await gateway.signedIn('valeria@example.com', 'sabana');
      const enrolment = await holder.call({
        method: 'POST',
        url: ASSETS,
        json: { siteId: 'sabana', userAssetRequest: [{ assetType: 'PAN', value: VISA, cvv: CVV }] },
      });
      expect(enrolment.statusCode).toBe(400);
      expect(await assetCount()).toBe(0);
    });

    it('the code reaches no log line, no answer and no table', async () => {
      const browser = await gateway.anonymous();
      await validate(browser, 'sabana', { assetType: 'PAN', value: VISA, cvv: CVV });
      await validate(browser, 'sabana', { assetType: 'PAN', value: VISA, cvv: '12' });
      await validate(browser, 'firstbank', { assetType: 'PAN', value: VISA, cvv: CVV });
      const logs = gateway.logLines.join('\n');
      expect(findSecrets(logs, 'log', { passwords: [], passcodes: [] }).filter((finding) => finding.kind === 'card security code')).toEqual([]);
      expect(logs).not.toMatch(/cvv/i);
      for (const answer of browser.answers) expect(answer).not.toMatch(/"(?:737|12)"/);
      const columns = await gateway.test.db.query<{ column_name: string }>(
        "select column_name from information_schema.columns where column_name ilike '%cvv%' or column_name ilike '%cvc%'",
      );
      expect(columns.rows).toEqual([]);
    });
  });
});

describe('six_digit_verification: the bin field’s six digits against the BIN table', () => {
  /** firstbank with the setting on: its ninedigitbin now asks six digits (no bundled site has both). */
  async function fixturesWithSixDigitSite(): Promise<Fixtures> {
    const fixtures = await realFixtures();
    const firstbank = fixtures.sites.get('firstbank')!;
    const config: SiteConfig = {
      ...firstbank.config,
      siteId: 'sixdigits',
      siteFeatureConfigurations: firstbank.config.siteFeatureConfigurations.map((feature) =>
        feature.name === 'user_enrollment' ? { ...feature, featureConfig: { ...feature.featureConfig, six_digit_verification: 'true' } } : feature,
      ),
    };
    return { ...fixtures, sites: new Map([...fixtures.sites, ['sixdigits', { ...firstbank, config }]]) };
  }

  it('an eligible prefix passes; a prefix of an ineligible range, or of none, is binNotEligible; a wrong length stays invalid', async () => {
    const fixtures = await fixturesWithSixDigitSite();
    const binError = (ninedigitbin: string) =>
      payloadErrors(fixtures, { siteId: 'sixdigits', locale: 'en_us', form: 'edit-profile' }, { ninedigitbin }, new Date()).ninedigitbin;
    expect(binError('411111')).toBeUndefined();
    expect(binError('410000')).toBe('binNotEligible');
    expect(binError('491761')).toBe('binNotEligible');
    expect(binError('411111111')).toBe('invalid');
  });

  it('without the setting the bin is not looked up (firstbank keeps its nine digits)', async () => {
    const fixtures = await realFixtures();
    expect(
      payloadErrors(fixtures, { siteId: 'firstbank', locale: 'en_us', form: 'edit-profile' }, { ninedigitbin: '491761000' }, new Date()).ninedigitbin,
    ).toBeUndefined();
  });
});
