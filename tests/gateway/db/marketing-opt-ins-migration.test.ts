import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../../gateway/db/migrate';
import { readMarketingOptIns } from '../../../schemas/entities/marketing-opt-ins';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';

/**
 * Migration 012 (SPEC §3 marketing opt-ins, one stored shape): accounts that registration stored with
 * the form's checkbox list `{ email: true }` are rewritten to `{ email: { optin: true } }`, which the
 * profile reads; rows already in that shape, other attributes and the row's version stay as they were.
 */
describeEachDatabase((leg) => {
  let test: TestDatabase;
  beforeEach(async () => {
    test = await leg.open();
  });
  afterEach(() => test.dispose());

  const attributesOf = async (userId: string) =>
    (await test.db.query<{ attributes: Record<string, unknown>; version: number }>('select attributes, version from user_sites where user_id = $1', [userId]))
      .rows[0];

  async function insertAccount(email: string, attributes: Record<string, unknown>): Promise<string> {
    const user = await test.db.query<{ id: string }>("insert into users (email, password_hash, status) values ($1, 'x', 'ACTIVE') returning id", [email]);
    const userId = user.rows[0]!.id;
    await test.db.query("insert into user_sites (user_id, site_id, attributes, version) values ($1, 'firstbank', $2, 3)", [userId, JSON.stringify(attributes)]);
    return userId;
  }

  it('rewrites opt-ins stored as booleans to the { optin } shape and leaves everything else as it was', async () => {
    const before = (await readMigrations()).filter((migration) => migration.version < '012');
    await migrate(test.db, before);
    const oldShape = await insertAccount('old@example.com', {
      first_name: 'Ana',
      marketing_opt_ins: { email: true, sms: false, cashback: true },
      email_optin: 'false',
    });
    const mixed = await insertAccount('mixed@example.com', { marketing_opt_ins: { email: { optin: false }, online: true } });
    const current = await insertAccount('new@example.com', { marketing_opt_ins: { email: { optin: true } } });
    const without = await insertAccount('none@example.com', { first_name: 'Bo' });

    expect(await migrate(test.db)).toContain('012_marketing_opt_ins_shape.sql');

    const migrated = await attributesOf(oldShape);
    expect(migrated).toEqual({
      attributes: { first_name: 'Ana', marketing_opt_ins: { email: { optin: true }, sms: { optin: false }, cashback: { optin: true } }, email_optin: 'false' },
      version: 3,
    });
    // What the profile shows: the choices made at registration, ticked.
    expect(readMarketingOptIns(migrated!.attributes)).toEqual({ email: true, transactional: false, sms: false, online: false, cashback: true });
    expect((await attributesOf(mixed))!.attributes).toEqual({ marketing_opt_ins: { email: { optin: false }, online: { optin: true } } });
    expect((await attributesOf(current))!.attributes).toEqual({ marketing_opt_ins: { email: { optin: true } } });
    expect((await attributesOf(without))!.attributes).toEqual({ first_name: 'Bo' });
  });
});
