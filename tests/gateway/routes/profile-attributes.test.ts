import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../gateway/db/database';
import { buildGateway } from '../../../gateway/server';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { TestBrowser } from '../support/test-browser';
import { realFixtures } from '../support/test-gateway';

/**
 * docs/decisions/0010-profile-and-preferences-api.md: reading and saving a person's site
 * attributes (SPEC §7 user-attribute calls, `user-mgmt/user/update`), checked with the site's own
 * rules (SPEC §5), the profile-update guard (SPEC §6) and two tabs saving at once.
 */
async function insertPerson(db: Database, email: string, siteId: string, attributes: Record<string, unknown> | null): Promise<string> {
  const inserted = await db.query<{ id: string }>(
    `insert into users (email, password_hash, first_name, last_name, dob, title, status, roles)
     values ($1, 'not-a-real-hash', 'Emily', 'Carter', '1988-04-12', 'Ms', 'ACTIVE', '{ROLE_CARDHOLDER}') returning id`,
    [email],
  );
  const id = inserted.rows[0]!.id;
  if (attributes) await db.query('insert into user_sites (user_id, site_id, attributes) values ($1, $2, $3)', [id, siteId, JSON.stringify(attributes)]);
  return id;
}

const EMILY_ATTRIBUTES = {
  first_name: 'Emily',
  last_name: 'Carter',
  dob: '1988-04-12',
  phone: '2025550143',
  ninedigitbin: '411111111',
  nationalId: '536224189',
  marketing_opt_ins: { email: { optin: true }, online: { optin: false } },
};

async function storedSite(db: Database, userId: string, siteId: string) {
  const result = await db.query<{ attributes: Record<string, unknown>; version: number; attribute_versions: Record<string, number> }>(
    'select attributes, version, attribute_versions from user_sites where user_id = $1 and site_id = $2',
    [userId, siteId],
  );
  return result.rows[0];
}

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let emilyId: string;

  beforeEach(async () => {
    test = await leg.openMigrated();
    app = await buildGateway({ db: test.db, fixtures: await realFixtures(), testMode: true });
    emilyId = await insertPerson(test.db, 'emily@example.com', 'firstbank', EMILY_ATTRIBUTES);
  });
  afterEach(async () => {
    await app.close();
    await test.dispose();
  });

  async function signedIn(email: string, siteId: string): Promise<TestBrowser> {
    const browser = new TestBrowser(app);
    const response = await browser.call({ method: 'POST', url: 'test-support/session', json: { email, siteId } });
    expect(response.statusCode).toBe(200);
    return browser;
  }

  const saveChanged = (browser: TestBrowser, siteId: string, body: unknown) =>
    browser.call({ method: 'POST', url: `user-attribute/v2/user/${siteId}`, json: body });
  const saveWhole = (browser: TestBrowser, siteId: string, body: unknown) =>
    browser.call({ method: 'POST', url: `user-attribute/user/attribute/${siteId}`, json: body });

  describe('GET user-attribute/user/{siteId}', () => {
    it('answers userSites[siteId] with the stored attributes and version 0 before any save', async () => {
      const browser = await signedIn('emily@example.com', 'firstbank');
      const response = await browser.call({ method: 'GET', url: 'user-attribute/user/firstbank' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ userSites: { firstbank: { siteId: 'firstbank', attributes: EMILY_ATTRIBUTES, version: 0 } } });
    });

    it('answers empty attributes and version 0 on a site where the person has none', async () => {
      // One identity across sites (ADR 0017): signed in on northbank, where she has no profile yet.
      const browser = await signedIn('emily@example.com', 'northbank');
      const response = await browser.call({ method: 'GET', url: 'user-attribute/user/northbank' });
      expect(response.json()).toEqual({ userSites: { northbank: { siteId: 'northbank', attributes: {}, version: 0 } } });
    });
  });

  it('every call answers 401 UNAUTHENTICATED when signed out, and writes nothing', async () => {
    const browser = new TestBrowser(app);
    await browser.open();
    const calls = [
      browser.call({ method: 'GET', url: 'user-attribute/user/firstbank' }),
      saveChanged(browser, 'firstbank', { attributes: { first_name: 'Mallory' } }),
      saveWhole(browser, 'firstbank', { siteId: 'firstbank', attributes: {}, version: 0 }),
      browser.call({ method: 'POST', url: 'user-mgmt/user/update' }),
      browser.call({ method: 'GET', url: 'my-cashback/firstbank' }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe('UNAUTHENTICATED');
    }
    expect((await storedSite(test.db, emilyId, 'firstbank'))?.attributes).toEqual(EMILY_ATTRIBUTES);
  });

  it('ADR 0008: a save without the XSRF header is refused before anything is written', async () => {
    const browser = await signedIn('emily@example.com', 'firstbank');
    const response = await browser.call({
      method: 'POST',
      url: 'user-attribute/v2/user/firstbank',
      json: { attributes: { first_name: 'Mallory' } },
      withoutXsrfHeader: true,
    });
    expect(response.statusCode).toBe(403);
    expect((await storedSite(test.db, emilyId, 'firstbank'))?.version).toBe(0);
  });

  describe('POST user-attribute/v2/user/{siteId}', () => {
    it('merges only the keys sent, bumps the version, and the database holds the result', async () => {
      const browser = await signedIn('emily@example.com', 'firstbank');
      const response = await saveChanged(browser, 'firstbank', {
        attributes: { first_name: 'Emily Rose', phone: '(202) 555-0188', title: 'ms' },
        baseVersion: 0,
      });
      expect(response.statusCode).toBe(200);
      const expected = { ...EMILY_ATTRIBUTES, first_name: 'Emily Rose', phone: '(202) 555-0188', title: 'ms' };
      expect(response.json()).toEqual({ siteId: 'firstbank', attributes: expected, version: 1 });

      const stored = await storedSite(test.db, emilyId, 'firstbank');
      expect(stored).toEqual({ attributes: expected, version: 1, attribute_versions: { first_name: 1, phone: 1, title: 1 } });
      const read = await browser.call({ method: 'GET', url: 'user-attribute/user/firstbank' });
      expect(read.json().userSites.firstbank).toEqual({ siteId: 'firstbank', attributes: expected, version: 1 });
    });

    it('null removes an Optional key; saving the opt-ins keeps the ones not sent', async () => {
      const browser = await signedIn('emily@example.com', 'firstbank');
      const response = await saveChanged(browser, 'firstbank', { attributes: { phone: null, marketing_opt_ins: { cashback: { optin: true } } } });
      expect(response.statusCode).toBe(200);
      const { attributes } = (await storedSite(test.db, emilyId, 'firstbank'))!;
      expect(attributes.phone).toBeUndefined();
      expect(attributes.marketing_opt_ins).toEqual({ email: { optin: true }, online: { optin: false }, cashback: { optin: true } });
    });

    it('SPEC §4: the auth machine saving { locale } after USER_NOT_FOUND creates the profile on that site', async () => {
      const browser = await signedIn('emily@example.com', 'unionbank');
      const response = await saveChanged(browser, 'unionbank', { attributes: { locale: 'en_us' } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ siteId: 'unionbank', attributes: { locale: 'en_us' }, version: 1 });
      const background = await browser.call({ method: 'GET', url: 'user-attribute/user/background/unionbank' });
      expect(background.json()).toEqual({ passesBackgroundCheck: true });
    });

    it.each<[string, Record<string, unknown>, Record<string, string>]>([
      ['§5 a first name with a forbidden character', { first_name: 'Em(ily)' }, { first_name: 'error' }],
      ['§5 a last name with <, > and |', { last_name: '<Carter|>' }, { last_name: 'error' }],
      ['§5 a phone outside the site mask (000) 000-0000', { phone: '+44 20 7946 0958' }, { phone: 'invalid' }],
      ['§5 a dob under the site minimum age of 18', { dob: '2015-06-01' }, { dob: 'invalidAgeError' }],
      ['§5 a dob that is no date', { dob: '1988-13-45' }, { dob: 'incompleteFormateError' }],
      ['a Mandatory key emptied', { last_name: '' }, { last_name: 'required' }],
      ['a Mandatory key removed', { ninedigitbin: null }, { ninedigitbin: 'required' }],
      ['a key the site profile does not have', { shoe_size: '42' }, { shoe_size: 'unknownAttribute' }],
      [
        '§5 password and e-mail, which the profile form never edits',
        { password: 'Secret#2025x', email: 'mallory@example.com' },
        { password: 'notEditable', email: 'notEditable' },
      ],
      ['§5 the national id, which the profile form never edits', { nationalId: '078051120' }, { nationalId: 'notEditable' }],
      ['§3 an opt-in firstbank does not enable (sms)', { marketing_opt_ins: { sms: { optin: true } } }, { 'marketing_opt_ins.sms': 'notEnabled' }],
      ['§7 an offer category outside the NA group', { offers_preference: ['dining', 'football'] }, { offers_preference: 'unknownCategory' }],
      [
        'wrong types',
        { first_name: 7, address: 'Main St', offers_preference: 'dining' },
        { first_name: 'invalid', address: 'invalid', offers_preference: 'invalid' },
      ],
      ['§5 a huge string (default max length 100)', { first_name: 'E'.repeat(50_000) }, { first_name: 'tooLong' }],
      // The code names the rule broken, so a client can say it: the length limit, or the format (SPEC §5).
      ['§5 a 120-character last name', { last_name: 'C'.repeat(120) }, { last_name: 'tooLong' }],
      ['§5 a ZIP code of four digits where the site asks five', { address: { zipcode: '1234' } }, { 'address.zipcode': 'invalid' }],
    ])('refuses %s with 400 VALIDATION_FAILED naming the field, and writes nothing', async (_case, attributes, fields) => {
      const browser = await signedIn('emily@example.com', 'firstbank');
      const response = await saveChanged(browser, 'firstbank', { attributes: { ...attributes, title: 'ms' }, baseVersion: 0 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields });
      expect(Object.keys(response.json().fields)).toEqual(Object.keys(fields));
      expect(await storedSite(test.db, emilyId, 'firstbank')).toEqual({ attributes: EMILY_ATTRIBUTES, version: 0, attribute_versions: {} });
    });

    it('refuses a body that is not { attributes, baseVersion? }: an extra member, a non-object, a bad key name, a negative version', async () => {
      const browser = await signedIn('emily@example.com', 'firstbank');
      for (const body of [
        { attributes: { title: 'ms' }, vopUsers: [] },
        { attributes: ['title'] },
        { attributes: { 'first name': 'Emily' } },
        { attributes: { ['k'.repeat(100)]: 'x' } },
        { attributes: { title: 'ms' }, baseVersion: -1 },
      ]) {
        const response = await saveChanged(browser, 'firstbank', body);
        expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(response.json().error).toBe('VALIDATION_FAILED');
      }
      expect((await storedSite(test.db, emilyId, 'firstbank'))?.version).toBe(0);
    });

    it('two tabs saving different fields from the same version both keep their change', async () => {
      const firstTab = await signedIn('emily@example.com', 'firstbank');
      const secondTab = await signedIn('emily@example.com', 'firstbank');
      const first = await saveChanged(firstTab, 'firstbank', { attributes: { first_name: 'Emilia' }, baseVersion: 0 });
      const second = await saveChanged(secondTab, 'firstbank', {
        attributes: { phone: '(202) 555-0199', marketing_opt_ins: { cashback: { optin: true } } },
        baseVersion: 0,
      });
      expect(first.statusCode).toBe(200);
      expect(second.statusCode).toBe(200);
      expect(second.json().version).toBe(2);
      const { attributes } = (await storedSite(test.db, emilyId, 'firstbank'))!;
      expect(attributes).toMatchObject({ first_name: 'Emilia', phone: '(202) 555-0199', last_name: 'Carter' });
      expect(attributes.marketing_opt_ins).toEqual({ email: { optin: true }, online: { optin: false }, cashback: { optin: true } });
    });

    it('two tabs ticking different opt-ins both keep theirs; the same opt-in is a conflict on that opt-in', async () => {
      const firstTab = await signedIn('emily@example.com', 'firstbank');
      const secondTab = await signedIn('emily@example.com', 'firstbank');
      expect((await saveChanged(firstTab, 'firstbank', { attributes: { marketing_opt_ins: { online: { optin: true } } }, baseVersion: 0 })).statusCode).toBe(
        200,
      );
      expect((await saveChanged(secondTab, 'firstbank', { attributes: { marketing_opt_ins: { cashback: { optin: true } } }, baseVersion: 0 })).statusCode).toBe(
        200,
      );
      const clash = await saveChanged(secondTab, 'firstbank', { attributes: { marketing_opt_ins: { online: { optin: false } } }, baseVersion: 0 });
      expect(clash.statusCode).toBe(409);
      expect(clash.json().fields).toEqual({ 'marketing_opt_ins.online': 'changed' });
    });

    it('the same field saved by two tabs from one version: the later answers 409 ATTRIBUTES_CHANGED with the current object and writes nothing', async () => {
      const firstTab = await signedIn('emily@example.com', 'firstbank');
      const secondTab = await signedIn('emily@example.com', 'firstbank');
      expect((await saveChanged(firstTab, 'firstbank', { attributes: { first_name: 'Emilia' }, baseVersion: 0 })).statusCode).toBe(200);
      const later = await saveChanged(secondTab, 'firstbank', { attributes: { first_name: 'Em', phone: '(202) 555-0100' }, baseVersion: 0 });
      expect(later.statusCode).toBe(409);
      const current = { attributes: { ...EMILY_ATTRIBUTES, first_name: 'Emilia' }, version: 1 };
      expect(later.json()).toEqual({ error: 'ATTRIBUTES_CHANGED', message: expect.any(String), fields: { first_name: 'changed' }, current });
      expect(await storedSite(test.db, emilyId, 'firstbank')).toMatchObject(current);

      // Saved again from the version the conflict showed, it goes through.
      const retried = await saveChanged(secondTab, 'firstbank', { attributes: { first_name: 'Em' }, baseVersion: 1 });
      expect(retried.json()).toMatchObject({ version: 2, attributes: { first_name: 'Em' } });
    });

    it('SPEC §7: offer categories are those of the person locale group (football in LAC for pt_br, not in NA)', async () => {
      const anaId = await insertPerson(test.db, 'ana@example.com', 'bancosol', { phone: '11987654321' });
      await test.db.query("update users set locale = 'pt_br' where id = $1", [anaId]);
      const browser = await signedIn('ana@example.com', 'bancosol');
      const saved = await saveChanged(browser, 'bancosol', { attributes: { offers_preference: ['football', 'dining'] } });
      expect(saved.statusCode).toBe(200);
      expect((await storedSite(test.db, anaId, 'bancosol'))?.attributes.offers_preference).toEqual(['football', 'dining']);
      const elsewhere = await saveChanged(browser, 'bancosol', { attributes: { offers_preference: ['football'], locale: 'en_us' } });
      expect(elsewhere.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { offers_preference: 'unknownCategory' } });
    });

    it('SPEC §3 legacy opt-in names: a save writes the new shape with the legacy values kept and drops the legacy keys', async () => {
      const mariamId = await insertPerson(test.db, 'mariam@example.com', 'dohabank', { phone: '5512 3456', email_optin: 'true', sms_optin: true });
      const browser = await signedIn('mariam@example.com', 'dohabank');
      const response = await saveChanged(browser, 'dohabank', { attributes: { marketing_opt_ins: { email: { optin: false } } } });
      expect(response.statusCode).toBe(200);
      const { attributes } = (await storedSite(test.db, mariamId, 'dohabank'))!;
      expect(attributes).toEqual({ phone: '5512 3456', marketing_opt_ins: { email: { optin: false }, sms: { optin: true } } });
    });
  });

  describe('POST user-attribute/user/attribute/{siteId} (whole site object)', () => {
    it('saves the object at the version it was read: only what changed is checked, a missing key is removed', async () => {
      const browser = await signedIn('emily@example.com', 'firstbank');
      const { phone: _removed, ...rest } = EMILY_ATTRIBUTES;
      // nationalId comes back unchanged: it is not a change, so the profile-form rule does not refuse it.
      const response = await saveWhole(browser, 'firstbank', {
        siteId: 'firstbank',
        attributes: { ...rest, offers_preference: ['travel', 'dining'] },
        version: 0,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ siteId: 'firstbank', attributes: { ...rest, offers_preference: ['travel', 'dining'] }, version: 1 });
      expect((await storedSite(test.db, emilyId, 'firstbank'))?.attributes).toEqual({ ...rest, offers_preference: ['travel', 'dining'] });
    });

    it('answers 409 ATTRIBUTES_CHANGED with the current object when the version is stale', async () => {
      const browser = await signedIn('emily@example.com', 'firstbank');
      await saveChanged(browser, 'firstbank', { attributes: { first_name: 'Emilia' } });
      const stale = await saveWhole(browser, 'firstbank', {
        siteId: 'firstbank',
        attributes: { ...EMILY_ATTRIBUTES, offers_preference: ['travel'] },
        version: 0,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({
        error: 'ATTRIBUTES_CHANGED',
        fields: { first_name: 'changed' },
        current: { version: 1, attributes: { first_name: 'Emilia' } },
      });
      expect((await storedSite(test.db, emilyId, 'firstbank'))?.attributes.offers_preference).toBeUndefined();
    });

    it('refuses vopUsers (SPEC §7 "minus vopUsers"), a site id other than the path, and bad changed values', async () => {
      const browser = await signedIn('emily@example.com', 'firstbank');
      const withVop = await saveWhole(browser, 'firstbank', { siteId: 'firstbank', attributes: EMILY_ATTRIBUTES, version: 0, vopUsers: [] });
      expect(withVop.statusCode).toBe(400);
      expect(withVop.json().fields).toEqual({ vopUsers: 'notAllowed' });
      // A body naming another site than the session's is refused like any call on another site (ADR 0017).
      const otherSite = await saveWhole(browser, 'firstbank', { siteId: 'northbank', attributes: EMILY_ATTRIBUTES, version: 0 });
      expect(otherSite.statusCode).toBe(403);
      expect(otherSite.json().error).toBe('SITE_MISMATCH');
      const badCategory = await saveWhole(browser, 'firstbank', {
        siteId: 'firstbank',
        attributes: { ...EMILY_ATTRIBUTES, offers_preference: ['casino'] },
        version: 0,
      });
      expect(badCategory.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { offers_preference: 'unknownCategory' } });
      const noVersion = await saveWhole(browser, 'firstbank', { siteId: 'firstbank', attributes: EMILY_ATTRIBUTES });
      expect(noVersion.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { version: 'required' } });
      expect((await storedSite(test.db, emilyId, 'firstbank'))?.version).toBe(0);
    });
  });

  describe('POST user-mgmt/user/update', () => {
    it('copies the site global profile fields into the profile and answers it, as user-mgmt/user/find then does', async () => {
      const browser = await signedIn('emily@example.com', 'firstbank');
      await saveChanged(browser, 'firstbank', { attributes: { first_name: 'Emilia', last_name: 'Carter-Hughes', dob: '1989-05-20', title: 'dr' } });
      const response = await browser.call({ method: 'POST', url: 'user-mgmt/user/update', headers: { 'x-site-id': 'firstbank' } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ firstName: 'Emilia', lastName: 'Carter-Hughes', dob: '1989-05-20', title: 'dr', email: 'emily@example.com' });
      const found = await browser.call({ method: 'GET', url: 'user-mgmt/user/find' });
      expect(found.json()).toEqual(response.json());
    });

    it('refuses a malformed X-SITE-ID naming the header, and changes nothing', async () => {
      const browser = await signedIn('emily@example.com', 'firstbank');
      await saveChanged(browser, 'firstbank', { attributes: { first_name: 'Emilia' } });
      const response = await browser.call({ method: 'POST', url: 'user-mgmt/user/update', headers: { 'x-site-id': '../firstbank' } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { 'x-site-id': 'invalid' } });
      expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).json().firstName).toBe('Emily');
    });

    it('leaves a profile field alone when the site attributes do not hold it', async () => {
      await insertPerson(test.db, 'riley@example.com', 'firstbank', { ninedigitbin: '411111111' });
      const browser = await signedIn('riley@example.com', 'firstbank');
      const response = await browser.call({ method: 'POST', url: 'user-mgmt/user/update', headers: { 'x-site-id': 'firstbank' } });
      expect(response.json()).toMatchObject({ firstName: 'Emily', lastName: 'Carter', dob: '1988-04-12', title: 'Ms' });
    });
  });

  describe('SPEC §6: a site whose pan_capture.updatable is "false" (northbank)', () => {
    let sophieId: string;
    const SOPHIE = {
      first_name: 'Sophie',
      last_name: 'Tremblay',
      dob: '1990-03-08',
      phone: '5145550199',
      state: 'QC',
      marketing_opt_ins: { email: { optin: true } },
    };
    beforeEach(async () => {
      sophieId = await insertPerson(test.db, 'sophie@example.com', 'northbank', SOPHIE);
    });

    it('the profile-editing calls answer 403 PROFILE_UPDATE_NOT_ALLOWED and nothing changes', async () => {
      const browser = await signedIn('sophie@example.com', 'northbank');
      const answers = [
        await saveChanged(browser, 'northbank', { attributes: { first_name: 'Sophia' } }),
        await saveChanged(browser, 'northbank', { attributes: { phone: '(514) 555-0100', marketing_opt_ins: { online: { optin: true } } } }),
        await saveWhole(browser, 'northbank', { siteId: 'northbank', attributes: { ...SOPHIE, last_name: 'Roy' }, version: 0 }),
        await browser.call({ method: 'POST', url: 'user-mgmt/user/update', headers: { 'x-site-id': 'northbank' } }),
      ];
      for (const response of answers) {
        expect(response.statusCode).toBe(403);
        expect(response.json().error).toBe('PROFILE_UPDATE_NOT_ALLOWED');
      }
      expect(await storedSite(test.db, sophieId, 'northbank')).toEqual({ attributes: SOPHIE, version: 0, attribute_versions: {} });
    });

    it('opt-ins, offer preferences and the locale stay editable', async () => {
      const browser = await signedIn('sophie@example.com', 'northbank');
      const optIns = await saveChanged(browser, 'northbank', { attributes: { marketing_opt_ins: { cashback: { optin: true } }, locale: 'fr_ca' } });
      expect(optIns.statusCode).toBe(200);
      const offers = await saveWhole(browser, 'northbank', {
        siteId: 'northbank',
        attributes: { ...optIns.json().attributes, offers_preference: ['groceries'] },
        version: 1,
      });
      expect(offers.statusCode).toBe(200);
      expect((await storedSite(test.db, sophieId, 'northbank'))?.attributes).toEqual({
        ...SOPHIE,
        locale: 'fr_ca',
        marketing_opt_ins: { email: { optin: true }, cashback: { optin: true } },
        offers_preference: ['groceries'],
      });
    });
  });
});
