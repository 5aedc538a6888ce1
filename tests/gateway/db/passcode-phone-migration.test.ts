import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../../gateway/db/migrate';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';

/**
 * Migration 021 (docs/decisions/0025-fresh-proof.md "A new phone is proved before it counts"): a phone stored
 * before the rule is the one passcodes went to, so it becomes the passcode phone as a text dials it (digits, a
 * leading `+` kept); a row without a phone, or with nothing dialable in it, has none.
 */
describeEachDatabase((leg) => {
  let test: TestDatabase;
  beforeEach(async () => {
    test = await leg.open();
  });
  afterEach(() => test.dispose());

  async function insertAccount(email: string, attributes: Record<string, unknown>): Promise<string> {
    const user = await test.db.query<{ id: string }>("insert into users (email, password_hash, status) values ($1, 'x', 'ACTIVE') returning id", [email]);
    const userId = user.rows[0]!.id;
    await test.db.query("insert into user_sites (user_id, site_id, attributes) values ($1, 'bancosol', $2)", [userId, JSON.stringify(attributes)]);
    return userId;
  }

  it('keeps every stored phone as the passcode phone, as it is dialled', async () => {
    await migrate(
      test.db,
      (await readMigrations()).filter((migration) => migration.version < '021'),
    );
    const masked = await insertAccount('ana@example.com', { phone: '11987654321' });
    const typed = await insertAccount('rui@example.com', { phone: ' +55 (11) 98765-4321' });
    const none = await insertAccount('bo@example.com', { first_name: 'Bo' });
    const blank = await insertAccount('cy@example.com', { phone: '( ) -' });
    await migrate(test.db);
    const passcodePhone = async (userId: string) =>
      (await test.db.query<{ passcode_phone: string | null }>('select passcode_phone from user_sites where user_id = $1', [userId])).rows[0]?.passcode_phone;
    expect(await passcodePhone(masked)).toBe('11987654321');
    expect(await passcodePhone(typed)).toBe('+5511987654321');
    expect(await passcodePhone(none)).toBeNull();
    expect(await passcodePhone(blank)).toBeNull();
  });
});
