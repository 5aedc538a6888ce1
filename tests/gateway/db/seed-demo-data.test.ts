import { randomBytes } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { BinRange } from '../../../schemas/cards/bin-ranges';
import { seedDemoData } from '../../../gateway/db/seed-demo-data';
import type { DemoUser } from '../../../gateway/site-files/load-fixtures';
import { createCardFingerprinter } from '../../../gateway/security/card-fingerprint';
import { environmentKey, KeyRing } from '../../../gateway/security/key-ring';
import { AdjustableClock } from '../../../gateway/time/clock';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { realFixtures } from '../support/test-gateway';

/** A 13–19 digit number, as typed or stored (with optional single spaces or dashes). */
const CARD_NUMBER_LIKE = /\d(?:[ -]?\d){12,18}/;
/** Row ids: a UUID's last groups can be all digits joined by a dash, which reads like a grouped number. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const fingerprint = createCardFingerprinter(new KeyRing('card-fingerprint', [environmentKey(randomBytes(32))]), new AdjustableClock());

let demoUsers: readonly DemoUser[];
let binRanges: readonly BinRange[];
beforeAll(async () => {
  ({ demoUsers, binRanges } = await realFixtures());
  expect(demoUsers.length).toBeGreaterThan(0);
});

describeEachDatabase((leg) => {
  let test: TestDatabase;
  beforeEach(async () => {
    test = await leg.openMigrated();
  });
  afterEach(() => test.dispose());

  const count = async (table: string) => (await test.db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]?.n;

  it('inserts every demo user, their site and their cards on first start, and nothing on later starts', async () => {
    expect(await seedDemoData(test.db, demoUsers, fingerprint, binRanges)).toBe(demoUsers.length);
    expect(await count('users')).toBe(demoUsers.length);
    expect(await count('user_sites')).toBe(demoUsers.length);
    expect(await count('assets')).toBe(demoUsers.reduce((sum, user) => sum + user.cards.length, 0));

    expect(await seedDemoData(test.db, demoUsers, fingerprint, binRanges)).toBe(0);
    expect(await count('users')).toBe(demoUsers.length);
    expect(await count('assets')).toBe(demoUsers.reduce((sum, user) => sum + user.cards.length, 0));
  });

  it('seeds once when two instances start together', async () => {
    const second = await test.openSecondInstance();
    const inserted = await Promise.all([seedDemoData(test.db, demoUsers, fingerprint, binRanges), seedDemoData(second, demoUsers, fingerprint, binRanges)]);
    expect(inserted.sort()).toEqual([0, demoUsers.length]);
    expect(await count('users')).toBe(demoUsers.length);
  });

  it('does not seed a database that already has users', async () => {
    await test.db.query("insert into users (email, password_hash) values ('someone@example.com', 'x')");
    expect(await seedDemoData(test.db, demoUsers, fingerprint, binRanges)).toBe(0);
    expect(await count('users')).toBe(1);
  });

  it('stores passwords as argon2id hashes of the demo passwords', async () => {
    await seedDemoData(test.db, demoUsers, fingerprint, binRanges);
    for (const user of demoUsers) {
      const { rows } = await test.db.query<{ password_hash: string; email: string }>('select email, password_hash from users where email = $1', [
        user.email.toLowerCase(),
      ]);
      const hash = rows[0]?.password_hash ?? '';
      expect(hash.startsWith('$argon2id$'), `${user.email} has an argon2id hash`).toBe(true);
      expect(hash).not.toContain(user.password);
      expect(await verify(hash, user.password)).toBe(true);
    }
  });

  it('keeps cards as last four + product type + keyed fingerprint, one default each', async () => {
    await seedDemoData(test.db, demoUsers, fingerprint, binRanges);
    for (const user of demoUsers) {
      const { rows } = await test.db.query<{ last_four: string; product_type: string; pan_fingerprint: string; is_default: boolean }>(
        `select a.last_four, a.product_type, a.pan_fingerprint, a.is_default
           from assets a join users u on u.id = a.user_id
          where u.email = $1 and a.site_id = $2`,
        [user.email.toLowerCase(), user.siteId],
      );
      const expected = user.cards.map((card) => {
        const digits = card.pan.replace(/\s/g, '');
        return { last_four: digits.slice(-4), product_type: card.productType, pan_fingerprint: fingerprint(digits).fingerprint };
      });
      expect(rows.map(({ is_default: _, ...card }) => card).sort(byFingerprint)).toEqual(expected.sort(byFingerprint));
      if (user.cards.length > 0) expect(rows.filter((row) => row.is_default)).toHaveLength(1);
    }
  });

  it('leaves no card number (13–19 digits) in any column of any table', async () => {
    await seedDemoData(test.db, demoUsers, fingerprint, binRanges);
    const tables = await test.db.query<{ name: string }>('select table_name as name from information_schema.tables where table_schema = current_schema()');
    const pans = demoUsers.flatMap((user) => user.cards.map((card) => card.pan.replace(/\s/g, '')));
    let rowsSeen = 0;
    for (const { name } of tables.rows) {
      // Every row as JSON text. The fingerprint is hex, where decimal runs occur by chance; it is checked on its own below.
      const dump = await test.db.query<{ row: string }>(`select (to_jsonb(t) - 'pan_fingerprint')::text as row from ${name} t`);
      for (const { row } of dump.rows) {
        rowsSeen++;
        expect(row.replace(UUID, '<uuid>'), `a row of ${name}`).not.toMatch(CARD_NUMBER_LIKE);
        for (const pan of pans) expect(row).not.toContain(pan);
      }
    }
    expect(rowsSeen).toBeGreaterThan(demoUsers.length);
    const fingerprints = await test.db.query<{ pan_fingerprint: string }>('select pan_fingerprint from assets');
    for (const { pan_fingerprint } of fingerprints.rows) {
      expect(pan_fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(pans.some((pan) => pan_fingerprint.includes(pan))).toBe(false);
    }
  });
});

function byFingerprint(a: { pan_fingerprint: string }, b: { pan_fingerprint: string }): number {
  return a.pan_fingerprint.localeCompare(b.pan_fingerprint);
}
