import { afterEach, beforeEach, expect, it } from 'vitest';
import { totpCode, totpStepAt } from '../../../gateway/auth/totp';
import { ANA_PASSWORD, register, registrationBody } from '../support/account-requests';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, signInWithPasscode, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0009-account-lifecycle-api.md "Deletion" (SPEC §2 delete-profile, §7
 * `remove-account`): the user and everything keyed by them gone (the database shows
 * it), the auth cookies cleared, and 403 DELETE_NOT_ALLOWED where the site forbids it.
 */
describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  /** ADR 0009 "Deletion: proof of presence": the current password goes with the call. */
  const removeAccount = (password = ANA_PASSWORD) => browser.call({ method: 'POST', url: 'user-mgmt/user/remove-account', json: { password } });
  /**
   * Every table with a user_id column, found from the catalogue so a table added later is covered too;
   * but the concierge audit trail, which keeps the ids of what agents did and outlives the account (ADR 0014).
   */
  const rowsPerTable = async (userId: string): Promise<Record<string, number>> => {
    const tables = await gateway.test.db.query<{ table_name: string }>(
      `select table_name from information_schema.columns
        where column_name = 'user_id' and table_schema = current_schema() and table_name <> 'concierge_audit' order by table_name`,
    );
    const counts: Record<string, number> = {};
    for (const { table_name: table } of tables.rows) {
      counts[table] = (await gateway.test.db.query<{ n: number }>(`select count(*)::int as n from ${table} where user_id = $1`, [userId])).rows[0]!.n;
    }
    const users = await gateway.test.db.query<{ n: number }>('select count(*)::int as n from users where id = $1', [userId]);
    counts.users = users.rows[0]!.n;
    return counts;
  };

  it('ADR 0009: removes the user and their rows in every table, revokes the session and clears every auth cookie', async () => {
    expect((await register(browser, registrationBody())).statusCode).toBe(202);
    const userId = (await gateway.test.db.query<{ id: string }>(`select id from users where email = 'ana@example.com'`)).rows[0]!.id;
    // Rows in every table: a session and refresh token, a trusted device, a recovery code, a TOTP secret and its backup codes.
    expect(
      (
        await signInWithPasscode(
          gateway,
          browser,
          { username: 'ana@example.com', password: ANA_PASSWORD, siteId: 'firstbank', trust_device: 'true' },
          'user-auth/oauth/token',
        )
      ).statusCode,
    ).toBe(200);
    await browser.call({ method: 'POST', url: 'user-mgmt/user/send-passcode', json: { email: 'ana@example.com', siteId: 'firstbank', locale: 'en_us' } });
    const { secret } = (await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' })).json<{ secret: string }>();
    await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code: totpCode(secret, totpStepAt(gateway.clock.now())) } });
    // A cashback statement line (ADR 0010), as the statement's source would write it.
    await gateway.test.db.query(
      `insert into cashback_lines (user_id, site_id, last_four, merchant, transaction_date, amount_minor, currency, status) values ($1, 'firstbank', '1111', 'Corner Cafe', '2026-10-01', 125, 'USD', 'ELIGIBLE')`,
      [userId],
    );
    // An agent's site grant (ADR 0017) is data about a user too, and goes with them.
    await gateway.test.db.query(`insert into agent_site_grants (user_id, site_id) values ($1, 'firstbank')`, [userId]);
    // An alias (docs/decisions/0022-declared-calls.md) names the person, so it goes with them.
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/alias', json: { alias: 'ana.card', aliasType: 'USERNAME' } })).statusCode).toBe(200);
    // A new phone waiting for its code (ADR 0025 "A new phone is proved before it counts").
    expect((await browser.call({ method: 'POST', url: 'user-attribute/v2/user/firstbank', json: { attributes: { phone: '2125550123' } } })).statusCode).toBe(
      200,
    );
    const before = await rowsPerTable(userId);
    expect(Object.keys(before).sort()).toEqual([
      'activation_tokens',
      'agent_site_grants',
      'assets',
      'cashback_lines',
      // The devices that signed in, and the enrolment notice's secure-account link (ADR 0021 "Telling the holder").
      'known_devices',
      'mfa_backup_codes',
      'one_time_codes',
      'password_history',
      'phone_proofs',
      'refresh_tokens',
      'secure_account_tokens',
      'sessions',
      'totp_secrets',
      'trusted_devices',
      'user_aliases',
      'user_sites',
      'users',
    ]);
    for (const [table, count] of Object.entries(before)) expect(count, table).toBeGreaterThan(0);

    // ADR 0025: the authenticator enrolled above is now the account's strongest factor; past the enrolment's
    // 10 minutes, the person confirms with its code.
    gateway.clock.advance(11 * 60);
    expect((await removeAccount()).json()).toMatchObject({ error: 'FRESH_PROOF_REQUIRED', proof: 'totp' });
    const confirmed = await browser.call({
      method: 'POST',
      url: 'user-auth/otp/verify',
      json: { otp: totpCode(secret, totpStepAt(gateway.clock.now())), otp_type: 'totp' },
    });
    expect(confirmed.statusCode).toBe(200);
    const response = await removeAccount();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'DELETED' });
    for (const [table, count] of Object.entries(await rowsPerTable(userId))) expect(count, table).toBe(0);
    const cleared = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    for (const name of ['SESSION', 'gmap_authenticated', 'gmap_user_type', 'LOGIN_CHALLENGE']) {
      expect(
        cleared.find((line) => line.startsWith(`${name}=;`)),
        name,
      ).toContain('Expires=Thu, 01 Jan 1970');
    }
    expect(browser.cookies.has('SESSION')).toBe(false);
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(401);
  });

  it('leaves other accounts alone', async () => {
    await insertUser(gateway.test.db, { email: 'ana@example.com', password: ANA_PASSWORD, siteId: 'eurobank' });
    const otherId = await insertUser(gateway.test.db, { email: 'other@example.com', password: ANA_PASSWORD, siteId: 'eurobank' });
    await browser.login({ username: 'ana@example.com', password: ANA_PASSWORD, siteId: 'eurobank' });
    expect((await removeAccount()).statusCode).toBe(200);
    expect((await rowsPerTable(otherId)).users).toBe(1);
  });

  it("ADR 0009 \"Deletion\": on one bank's site it deletes that site's profile only; the person's other bank keeps theirs, and its own allow_delete_profile", async () => {
    // Ana has a profile on eurobank and on northbank (allow_delete_profile "false"), with a card on each.
    const userId = await insertUser(gateway.test.db, { email: 'ana@example.com', password: ANA_PASSWORD, siteId: 'eurobank' });
    await gateway.test.db.query(`insert into user_sites (user_id, site_id, attributes) values ($1, 'northbank', '{"first_name":"Ana"}')`, [userId]);
    for (const [site, fingerprint] of [
      ['eurobank', 'a'.repeat(64)],
      ['northbank', 'b'.repeat(64)],
    ] as const) {
      await gateway.test.db.query(
        `insert into assets (user_id, site_id, asset_type, last_four, product_type, pan_fingerprint, is_default) values ($1, $2, 'PAN', '1111', 'F', $3, true)`,
        [userId, site, fingerprint],
      );
    }
    const onNorthbank = await new TestBrowser(gateway.app, '198.51.100.61').open();
    expect((await signInWithPasscode(gateway, onNorthbank, { username: 'ana@example.com', password: ANA_PASSWORD, siteId: 'northbank' })).statusCode).toBe(200);
    // eurobank asks no passcode on its own, but northbank's e-mailed one is the person's strongest rule (ADR 0017).
    expect((await signInWithPasscode(gateway, browser, { username: 'ana@example.com', password: ANA_PASSWORD, siteId: 'eurobank' })).statusCode).toBe(200);

    const removed = await removeAccount();
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ status: 'DELETED' });
    const left = await gateway.test.db.query<{ site_id: string }>(
      `select site_id from user_sites where user_id = $1 union all select site_id from assets where user_id = $1 order by site_id`,
      [userId],
    );
    expect(left.rows.map((row) => row.site_id)).toEqual(['northbank', 'northbank']);
    // The northbank session goes on; the eurobank one is over.
    expect((await onNorthbank.call({ method: 'GET', url: 'user-attribute/user/northbank' })).statusCode).toBe(200);
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(401);
    const mail = (await gateway.outbox.messagesTo('ana@example.com')).find((message) => message.subject === 'Your account was deleted');
    expect(mail?.text).toContain('Eurobank');
  });

  it('ADR 0009: 403 DELETE_NOT_ALLOWED on northbank (allow_delete_profile "false"); nothing is deleted', async () => {
    const userId = await insertUser(gateway.test.db, { email: 'nora@example.com', password: ANA_PASSWORD, siteId: 'northbank' });
    // northbank asks for an e-mailed passcode at sign-in (login_otp email).
    await browser.login({ username: 'nora@example.com', password: ANA_PASSWORD, siteId: 'northbank' });
    const code = await gateway.latestCode('nora@example.com');
    expect((await browser.login({ username: 'nora@example.com', password: ANA_PASSWORD, siteId: 'northbank', otp: code, otp_type: 'email' })).statusCode).toBe(
      200,
    );
    const response = await removeAccount();
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'DELETE_NOT_ALLOWED' });
    expect((await rowsPerTable(userId)).users).toBe(1);
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/find' })).statusCode).toBe(200);
  });

  it('signed out: 401 UNAUTHENTICATED; a JSON, text or empty body is all the same', async () => {
    expect((await removeAccount()).statusCode).toBe(401);
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/remove-account' })).statusCode).toBe(401);
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/remove-account', json: {} })).statusCode).toBe(401);
    expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/remove-account', headers: { 'content-type': 'application/json' } })).statusCode).toBe(
      401,
    );
  });
});
