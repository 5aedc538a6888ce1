import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../../gateway/db/migrate';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';

const HEX_FINGERPRINT = 'a'.repeat(64);

describeEachDatabase((leg) => {
  let test: TestDatabase;
  beforeEach(async () => {
    test = await leg.open();
  });
  afterEach(() => test.dispose());

  const tables = async () =>
    (
      await test.db.query<{ name: string }>(
        'select table_name as name from information_schema.tables where table_schema = current_schema() order by table_name',
      )
    ).rows.map((row) => row.name);

  it('applies every migration file in order, once, and records it', async () => {
    const files = (await readMigrations()).map((migration) => migration.name);
    expect(files[0]).toBe('001_users_sites_assets.sql');

    expect(await migrate(test.db)).toEqual(files);
    expect(await tables()).toEqual([
      'account_jobs',
      'activation_tokens',
      'agent_site_grants',
      'assets',
      'cashback_lines',
      'concierge_audit',
      'known_devices',
      'mfa_backup_codes',
      'one_time_codes',
      'operator_audit',
      'password_history',
      'phone_proofs',
      'refresh_tokens',
      'saml_requests',
      'saml_sessions',
      'saml_spent_assertions',
      'schema_migrations',
      'secure_account_tokens',
      'server_keys',
      'session_proofs',
      'sessions',
      'sso_login_requests',
      'test_idp_authorizations',
      'totp_secrets',
      'trusted_devices',
      'user_aliases',
      'user_sites',
      'users',
    ]);
    // Running again at the next start changes nothing.
    expect(await migrate(test.db)).toEqual([]);
    const recorded = await test.db.query<{ name: string }>('select name from schema_migrations order by version');
    expect(recorded.rows.map((row) => row.name)).toEqual(files);
  });

  it('applies each file exactly once when two instances start together', async () => {
    const second = await test.openSecondInstance();
    const [first, other] = await Promise.all([migrate(test.db), migrate(second)]);
    expect([...first, ...other].sort()).toEqual((await readMigrations()).map((migration) => migration.name));
    expect((await test.db.query('select count(*)::int as n from schema_migrations')).rows).toEqual([{ n: first.length + other.length }]);
  });

  it('leaves nothing of a failing migration behind', async () => {
    const broken = [
      { version: '001', name: '001_good.sql', sql: 'create table good (id int);' },
      { version: '002', name: '002_bad.sql', sql: 'create table half (id int); select * from no_such_table;' },
    ];
    await expect(migrate(test.db, broken)).rejects.toThrow(/no_such_table/);
    expect(await tables()).toEqual(['good', 'schema_migrations']);
    expect((await test.db.query('select version from schema_migrations')).rows).toEqual([{ version: '001' }]);
  });

  it('enforces the card and user rules in the schema itself', async () => {
    await migrate(test.db);
    const user = await test.db.query<{ id: string }>("insert into users (email, password_hash, status) values ('ana@example.com', 'x', 'ACTIVE') returning id");
    const userId = user.rows[0]?.id;
    expect(userId).toMatch(/^[0-9a-f-]{36}$/); // gen_random_uuid works on both engines
    const addCard = (lastFour: string, fingerprint: string, isDefault: boolean) =>
      test.db.query("insert into assets (user_id, site_id, last_four, pan_fingerprint, is_default) values ($1, 'firstbank', $2, $3, $4)", [
        userId,
        lastFour,
        fingerprint,
        isDefault,
      ]);

    await addCard('1111', HEX_FINGERPRINT, true);
    // SPEC §4: one default card per user and site.
    await expect(addCard('2222', 'b'.repeat(64), true)).rejects.toThrow(/assets_one_default_per_user_site/);
    await addCard('2222', 'b'.repeat(64), false);
    // The same card twice for one user and site.
    await expect(addCard('1111', HEX_FINGERPRINT, false)).rejects.toThrow(/unique/);
    // Only four digits and a hex fingerprint fit: a card number has nowhere to go.
    await expect(addCard('41111', 'c'.repeat(64), false)).rejects.toThrow();
    await expect(addCard('11a1', 'c'.repeat(64), false)).rejects.toThrow(/check/);
    await expect(addCard('3333', '4111111111111111', false)).rejects.toThrow(/check/);
    // E-mails are stored lower-cased, so uniqueness is case-insensitive.
    await expect(test.db.query("insert into users (email, password_hash) values ('Ana@Example.com', 'x')")).rejects.toThrow(/check/);
    await expect(test.db.query("insert into users (email, password_hash) values ('ana@example.com', 'x')")).rejects.toThrow(/unique/);
    await expect(test.db.query("insert into users (email, password_hash, status) values ('bo@example.com', 'x', 'GONE')")).rejects.toThrow(/check/);
    // Deleting a user deletes their cards and site attributes.
    await test.db.query("insert into user_sites (user_id, site_id) values ($1, 'firstbank')", [userId]);
    await test.db.query('delete from users where id = $1', [userId]);
    expect((await test.db.query('select (select count(*) from assets)::int as assets, (select count(*) from user_sites)::int as sites')).rows).toEqual([
      { assets: 0, sites: 0 },
    ]);
  });

  it('017: an address alias stored before it is unproved; unproved addresses may repeat on a site, proved ones and handles may not', async () => {
    const all = await readMigrations();
    await migrate(
      test.db,
      all.filter((migration) => migration.version < '017'),
    );
    const users = await test.db.query<{ id: string }>(
      "insert into users (email, password_hash) values ('ana@example.com', 'x'), ('bo@example.com', 'x'), ('cy@example.com', 'x') returning id",
    );
    const [ana, bo, cy] = users.rows.map((row) => row.id);
    const addAlias = (userId: string | undefined, type: string, normalised: string) =>
      test.db.query(
        "insert into user_aliases (user_id, site_id, alias_type, alias, normalised, created_at, updated_at) values ($1, 'firstbank', $2, $3, $3, now(), now())",
        [userId, type, normalised],
      );
    await addAlias(ana, 'EMAIL', 'shared@example.com');
    await migrate(test.db);
    expect((await test.db.query("select proved_at from user_aliases where alias_type = 'EMAIL'")).rows).toEqual([{ proved_at: null }]);
    await addAlias(bo, 'EMAIL', 'shared@example.com');
    const prove = (userId: string | undefined) =>
      test.db.query("update user_aliases set proved_at = now() where user_id = $1 and alias_type = 'EMAIL'", [userId]);
    await prove(ana);
    await expect(prove(bo)).rejects.toThrow(/unique/);
    await addAlias(ana, 'USERNAME', 'ana');
    await expect(addAlias(cy, 'USERNAME', 'ana')).rejects.toThrow(/unique/);
    // A handle is never proved, and a proved address keeps no code.
    await expect(test.db.query("update user_aliases set proved_at = now() where alias_type = 'USERNAME'")).rejects.toThrow(/check/);
    await expect(
      test.db.query(
        "update user_aliases set proof_id = gen_random_uuid(), proof_hash = $1, proof_expires_at = now() where user_id = $2 and alias_type = 'EMAIL'",
        [HEX_FINGERPRINT, ana],
      ),
    ).rejects.toThrow(/check/);
  });
});
