import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertNewAccountCards, type DescribedCard } from '../../../gateway/cards/card-enrolment';
import { migrate, readMigrations } from '../../../gateway/db/migrate';
import { seedDemoData } from '../../../gateway/db/seed-demo-data';
import { createCardFingerprinter } from '../../../gateway/security/card-fingerprint';
import { environmentKey, KeyRing } from '../../../gateway/security/key-ring';
import { AdjustableClock } from '../../../gateway/time/clock';
import { activationTokenFor, ANA_PASSWORD, firstbankUser, register, registrationBody } from '../support/account-requests';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { realFixtures } from '../support/test-gateway';
import { ASSETS, eligiblePan, openCardsGateway, openCardsGatewayForEachTest, type CardsGateway, type RecordingBrowser } from './card-test-support';

/**
 * docs/decisions/0011-cards-api.md "One account per card number on a site": a site is one card-linked
 * offer programme, so a number another account holds there is refused (409 CARD_NOT_AVAILABLE, words
 * that name no account), in the database too (migration 011's unique index) and in a race; registration
 * keeps such a card without enrolling it and answers as for any other; the migration keeps every row of
 * a live database that already has such numbers. On the embedded database and on PostgreSQL.
 */
const NOT_AVAILABLE = {
  error: 'CARD_NOT_AVAILABLE',
  message: 'This card cannot be added to this account. If it is yours, contact support and quote the X-CID of this answer.',
  fields: { 'userAssetRequest.0.value': 'notAvailable' },
};

describeEachDatabase((leg) => {
  describe('enrolment (POST {assetsUrl})', () => {
    let gateway: CardsGateway;
    const used = new Set<string>();
    openCardsGatewayForEachTest(leg, used, (opened) => {
      gateway = opened;
    });

    const enrol = (browser: RecordingBrowser, siteId: string, ...values: string[]) => {
      for (const value of values) used.add(value);
      return browser.call({ method: 'POST', url: ASSETS, json: { siteId, userAssetRequest: values.map((value) => ({ assetType: 'PAN', value })) } });
    };
    const rowsOf = async (userId: string) =>
      (
        await gateway.test.db.query<{ site_id: string; last_four: string; programme_enrolled: boolean }>(
          'select site_id, last_four, programme_enrolled from assets where user_id = $1 order by enrolment_order',
          [userId],
        )
      ).rows;

    it('a number another account holds on the site: 409 CARD_NOT_AVAILABLE naming the field, the same words whoever holds it; nothing stored', async () => {
      const ana = await gateway.signedIn('ana@example.com', 'firstbank');
      const bea = await gateway.signedIn('bea@example.com', 'firstbank');
      const cid = await gateway.signedIn('cid@example.com', 'firstbank');
      expect((await enrol(ana.browser, 'firstbank', eligiblePan(1))).statusCode).toBe(201);
      expect((await enrol(cid.browser, 'firstbank', eligiblePan(2))).statusCode).toBe(201);

      const refusals = [await enrol(bea.browser, 'firstbank', eligiblePan(1)), await enrol(bea.browser, 'firstbank', eligiblePan(2))];
      for (const refused of refusals) {
        expect(refused.statusCode).toBe(409);
        expect(refused.json()).toEqual(NOT_AVAILABLE);
        expect(refused.body).not.toMatch(/ana@|cid@|another account|already/i);
      }
      // All the cards of a call or none: a free number beside a held one is not stored either.
      const mixed = await enrol(bea.browser, 'firstbank', eligiblePan(3), eligiblePan(1));
      expect(mixed.json()).toMatchObject({ error: 'CARD_NOT_AVAILABLE', fields: { 'userAssetRequest.1.value': 'notAvailable' } });
      expect(await rowsOf(bea.userId)).toEqual([]);
      expect(await rowsOf(ana.userId)).toEqual([{ site_id: 'firstbank', last_four: eligiblePan(1).slice(-4), programme_enrolled: true }]);
    });

    it('the same number on another site is another programme: enrolled there', async () => {
      const ana = await gateway.signedIn('ana@example.com', 'firstbank');
      const bea = await gateway.signedIn('bea@example.com', 'eurobank');
      expect((await enrol(ana.browser, 'firstbank', eligiblePan(5))).statusCode).toBe(201);
      expect((await enrol(bea.browser, 'eurobank', eligiblePan(5))).statusCode).toBe(201);
      // And the holder may enrol it on a second site of their own, signed in there (ADR 0017).
      expect((await enrol(await gateway.signedInOn('ana@example.com', 'eurobank'), 'eurobank', eligiblePan(6))).statusCode).toBe(201);
    });

    it('a number the holder removed is free for another account', async () => {
      const ana = await gateway.signedIn('ana@example.com', 'vppcards');
      const bea = await gateway.signedIn('bea@example.com', 'vppcards');
      expect((await enrol(ana.browser, 'vppcards', eligiblePan(7), eligiblePan(8))).statusCode).toBe(201);
      const [, second] = (await gateway.test.db.query<{ id: string }>('select id from assets where user_id = $1 order by enrolment_order', [ana.userId])).rows;
      expect((await ana.browser.call({ method: 'POST', url: `${ASSETS}/${second!.id}/remove-asset` })).statusCode).toBe(200);
      expect((await enrol(bea.browser, 'vppcards', eligiblePan(8))).statusCode).toBe(201);
    });

    it('10 accounts enrolling one number at once: one 201, nine CARD_NOT_AVAILABLE, never a 500; one enrolled row', async () => {
      const accounts = await Promise.all(Array.from({ length: 10 }, (_, index) => gateway.signedIn(`racer${index}@example.com`, 'firstbank')));
      const answers = await Promise.all(accounts.map(({ browser }) => enrol(browser, 'firstbank', eligiblePan(9))));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, ...Array.from({ length: 9 }, () => 409)]);
      for (const refused of answers.filter((answer) => answer.statusCode === 409)) expect(refused.json()).toEqual(NOT_AVAILABLE);
      const stored = await gateway.test.db.query<{ n: number }>('select count(*)::int as n from assets');
      expect(stored.rows[0]!.n).toBe(1);
    });

    it('5 refusals in a day: every enrolment of that account waits (429), so numbers cannot be probed; a day later it may enrol', async () => {
      const ana = await gateway.signedIn('ana@example.com', 'firstbank');
      const bea = await gateway.signedIn('bea@example.com', 'firstbank');
      expect((await enrol(ana.browser, 'firstbank', eligiblePan(10))).statusCode).toBe(201);
      for (let attempt = 0; attempt < 5; attempt++) expect((await enrol(bea.browser, 'firstbank', eligiblePan(10))).statusCode).toBe(409);
      // A free number too: the answer no longer depends on the number.
      const waiting = await enrol(bea.browser, 'firstbank', eligiblePan(11));
      expect(waiting.statusCode).toBe(429);
      expect(waiting.json()).toMatchObject({ error: 'RATE_LIMITED' });
      expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(23 * 3600);
      gateway.clock.advance(24 * 3600);
      await bea.browser.call({ method: 'POST', url: 'test-support/session', json: { email: 'bea@example.com', siteId: 'firstbank' } });
      expect((await enrol(bea.browser, 'firstbank', eligiblePan(11))).statusCode).toBe(201);
    });

    it('the database refuses a second enrolled row for a number on a site (migration 011), whatever the code does', async () => {
      const ana = await gateway.signedIn('ana@example.com', 'firstbank');
      const bea = await gateway.signedIn('bea@example.com', 'firstbank');
      expect((await enrol(ana.browser, 'firstbank', eligiblePan(12))).statusCode).toBe(201);
      const { rows } = await gateway.test.db.query<{ pan_fingerprint: string }>('select pan_fingerprint from assets where user_id = $1', [ana.userId]);
      const copy = (enrolled: boolean) =>
        gateway.test.db.query(
          "insert into assets (user_id, site_id, last_four, pan_fingerprint, programme_enrolled) values ($1, 'firstbank', '0000', $2, $3)",
          [bea.userId, rows[0]!.pan_fingerprint, enrolled],
        );
      await expect(copy(true)).rejects.toThrow(/assets_one_account_per_site_card/);
      // A row kept on an account without the programme is what registration and the migration leave.
      await expect(copy(false)).resolves.toBeDefined();
    });
  });

  describe('registration with a number another account holds (ADR 0012: the answer comes first)', () => {
    let gateway: CardsGateway;
    beforeEach(async () => {
      gateway = await openCardsGateway(leg);
    });
    afterEach(() => gateway.dispose());

    it('answers 202 CHECK_EMAIL as for any card; the new account keeps the card, not enrolled (no card id, NOT_ELIGIBLE); the holder keeps theirs', async () => {
      const holder = await gateway.signedIn('holder@example.com', 'firstbank');
      expect(
        (
          await holder.browser.call({
            method: 'POST',
            url: ASSETS,
            json: { siteId: 'firstbank', userAssetRequest: [{ assetType: 'PAN', value: eligiblePan(20) }] },
          })
        ).statusCode,
      ).toBe(201);

      const held = await register(
        await gateway.anonymous('198.51.100.21'),
        registrationBody(firstbankUser({ email: 'late@example.com' }), [{ pan: eligiblePan(20) }]),
      );
      const free = await register(
        await gateway.anonymous('198.51.100.22'),
        registrationBody(firstbankUser({ email: 'fresh@example.com' }), [{ pan: eligiblePan(21) }]),
      );
      expect(held.statusCode).toBe(202);
      expect(held.body).toBe(free.body);

      const token = await activationTokenFor(gateway.outbox, 'late@example.com');
      const late = await gateway.anonymous('198.51.100.23');
      expect((await late.call({ method: 'POST', url: 'user-mgmt/user/activate-token', json: { token, password: ANA_PASSWORD } })).statusCode).toBe(200);
      expect((await late.call({ method: 'POST', url: 'test-support/session', json: { email: 'late@example.com', siteId: 'firstbank' } })).statusCode).toBe(200);
      const [card] = (await late.call({ method: 'GET', url: `${ASSETS}/firstbank` })).json<
        {
          metadata: { name: string }[];
          cashbackStatus: string;
          isDefaultAsset: boolean;
        }[]
      >();
      expect(card).toMatchObject({ cashbackStatus: 'NOT_ELIGIBLE', isDefaultAsset: true });
      expect(card!.metadata.map((entry) => entry.name)).toEqual(['LAST_FOUR', 'PRODUCT_TYPE', 'ISSUER_BID']);
      const rows = await gateway.test.db.query<{ email: string; programme_enrolled: boolean; vop_card_id: string | null }>(
        'select u.email, a.programme_enrolled, a.vop_card_id from assets a join users u on u.id = a.user_id order by u.email',
      );
      expect(rows.rows).toEqual([
        { email: 'fresh@example.com', programme_enrolled: true, vop_card_id: expect.stringMatching(/^vop_/) },
        { email: 'holder@example.com', programme_enrolled: true, vop_card_id: expect.stringMatching(/^vop_/) },
        { email: 'late@example.com', programme_enrolled: false, vop_card_id: null },
      ]);
      // The new account's own enrolment of the number is its duplicate, not a way in.
      expect(
        (
          await late.call({ method: 'POST', url: ASSETS, json: { siteId: 'firstbank', userAssetRequest: [{ assetType: 'PAN', value: eligiblePan(20) }] } })
        ).json(),
      ).toMatchObject({ error: 'CARD_DUPLICATE' });
    });

    it('two registrations with one number at once: both 202, both accounts made, one enrolled row', async () => {
      const answers = await Promise.all(
        ['one', 'two'].map(async (name, index) =>
          register(
            await gateway.anonymous(`198.51.100.${30 + index}`),
            registrationBody(firstbankUser({ email: `${name}@example.com` }), [{ pan: eligiblePan(22) }]),
          ),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202]);
      await gateway.app.accountJobs.whenIdle();
      const rows = await gateway.test.db.query<{ programme_enrolled: boolean }>('select programme_enrolled from assets order by programme_enrolled desc');
      expect(rows.rows).toEqual([{ programme_enrolled: true }, { programme_enrolled: false }]);
      expect((await gateway.test.db.query<{ n: number }>('select count(*)::int as n from users')).rows[0]!.n).toBe(2);
    });
  });

  describe('migration 011 on a live database, and the demo data', () => {
    let test: TestDatabase;
    beforeEach(async () => {
      test = await leg.open();
    });
    afterEach(() => test.dispose());

    it('keeps every row: the oldest enrolment of a number on a site keeps the programme, later ones stay on their accounts, not enrolled', async () => {
      const before011 = (await readMigrations()).filter((migration) => migration.version < '011');
      await migrate(test.db, before011);
      const fingerprint = (n: number) => String(n).repeat(64).slice(0, 64);
      const userIds: string[] = [];
      for (const email of ['first@example.com', 'second@example.com', 'third@example.com']) {
        const inserted = await test.db.query<{ id: string }>("insert into users (email, password_hash, status) values ($1, 'x', 'ACTIVE') returning id", [
          email,
        ]);
        userIds.push(inserted.rows[0]!.id);
      }
      const add = (user: number, siteId: string, print: string, createdAt: string) =>
        test.db.query(
          "insert into assets (user_id, site_id, last_four, pan_fingerprint, vop_card_id, created_at) values ($1, $2, '1111', $3, 'vop_abcdefghij', $4)",
          [userIds[user], siteId, print, createdAt],
        );
      // One number on three accounts of firstbank (the second enrolled first), and on a second site.
      await add(1, 'firstbank', fingerprint(1), '2026-01-01T00:00:00Z');
      await add(0, 'firstbank', fingerprint(1), '2026-02-01T00:00:00Z');
      await add(2, 'firstbank', fingerprint(1), '2026-03-01T00:00:00Z');
      await add(0, 'eurobank', fingerprint(1), '2026-03-01T00:00:00Z');
      await add(0, 'firstbank', fingerprint(2), '2026-03-01T00:00:00Z');

      expect(await migrate(test.db)).toEqual((await readMigrations()).filter((migration) => migration.version >= '011').map((migration) => migration.name));
      const rows = await test.db.query<{ email: string; site_id: string; print: string; programme_enrolled: boolean; vop_card_id: string }>(
        'select u.email, a.site_id, left(a.pan_fingerprint, 1) as print, a.programme_enrolled, a.vop_card_id from assets a join users u on u.id = a.user_id order by a.site_id, a.pan_fingerprint, a.created_at',
      );
      expect(rows.rows).toEqual([
        { email: 'first@example.com', site_id: 'eurobank', print: '1', programme_enrolled: true, vop_card_id: 'vop_abcdefghij' },
        { email: 'second@example.com', site_id: 'firstbank', print: '1', programme_enrolled: true, vop_card_id: 'vop_abcdefghij' },
        { email: 'first@example.com', site_id: 'firstbank', print: '1', programme_enrolled: false, vop_card_id: 'vop_abcdefghij' },
        { email: 'third@example.com', site_id: 'firstbank', print: '1', programme_enrolled: false, vop_card_id: 'vop_abcdefghij' },
        { email: 'first@example.com', site_id: 'firstbank', print: '2', programme_enrolled: true, vop_card_id: 'vop_abcdefghij' },
      ]);
    });

    it('two new accounts storing one number at once on two connections: both stored, one enrolled, neither fails', async () => {
      await migrate(test.db);
      const second = await test.openSecondInstance();
      const card: DescribedCard = { lastFour: '1111', fingerprint: 'c'.repeat(64), productType: 'C', eligible: true, issuerBid: '10001111' };
      const accounts = await Promise.all(
        [test.db, second].map(async (db, index) => {
          const inserted = await db.query<{ id: string }>("insert into users (email, password_hash, status) values ($1, 'x', 'INACTIVE') returning id", [
            `new${index}@example.com`,
          ]);
          return { db, userId: inserted.rows[0]!.id };
        }),
      );
      const stored = await Promise.all(
        accounts.map(({ db, userId }) => db.transaction((tx) => insertNewAccountCards(tx, userId, 'firstbank', [card], new Date()))),
      );
      expect(stored.map((rows) => rows.length)).toEqual([1, 1]);
      expect(stored.map(([row]) => row!.programme_enrolled).sort()).toEqual([false, true]);
    });

    it('seeds demo users who share a number on one site: the first keeps the programme', async () => {
      await migrate(test.db);
      const { demoUsers, binRanges } = await realFixtures();
      const emily = demoUsers.find((user) => user.email === 'emily.carter@example.com')!;
      const twin = { ...emily, email: 'emily.twin@example.com' };
      const seeded = await seedDemoData(
        test.db,
        [emily, twin],
        createCardFingerprinter(new KeyRing('card-fingerprint', [environmentKey(randomBytes(32))]), new AdjustableClock()),
        binRanges,
      );
      expect(seeded).toBe(2);
      const rows = await test.db.query<{ email: string; programme_enrolled: boolean }>(
        'select u.email, a.programme_enrolled from assets a join users u on u.id = a.user_id order by u.email',
      );
      expect(rows.rows).toEqual([
        { email: 'emily.carter@example.com', programme_enrolled: true },
        { email: 'emily.twin@example.com', programme_enrolled: false },
      ]);
    });
  });
});
