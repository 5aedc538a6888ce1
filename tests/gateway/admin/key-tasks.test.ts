import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AdminRefusal, listKeys, rotateKey, type AdminContext } from '../../../gateway/admin/admin-tasks';
import { KEY_ACTIVATION_DELAY_MS, ringKeyOf, ServerKeyRings, type KeyRow, type RootKeys } from '../../../gateway/security/key-ring';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';

/**
 * ADR 0026 "Key rotation with a grace window", the admin tasks on both databases: `keys rotate` and `keys list`, the
 * audit row in the rotation's transaction, the refusals, and instances that read a rotation without a restart.
 */
const ROOTS: RootKeys = { 'token-signing': randomBytes(32), 'totp-encryption': randomBytes(32), 'card-fingerprint': randomBytes(32) };
const DAY_MS = 24 * 3600_000;

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let context: AdminContext;
  const at = (ms: number): AdminContext => ({ ...context, now: new Date(context.now.getTime() + ms) });
  beforeEach(async () => {
    test = await leg.openMigrated();
    context = { db: test.db, sites: new Set(), operator: 'ops.tester', correlationId: 'admin-key-run', now: new Date('2026-11-29T10:00:00Z') };
  });
  afterEach(() => test.dispose());

  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AdminRefusal);
    return error as AdminRefusal;
  };
  const keyRows = async () => (await test.db.query<KeyRow>('select * from server_keys order by name, id')).rows;
  const auditRows = async () =>
    (
      await test.db.query<{ operator: string; action: string; key_name: string; key_id: string }>(
        'select operator, action, key_name, key_id from operator_audit',
      )
    ).rows;

  it('before any rotation each ring is the environment key alone (migration 025)', async () => {
    expect((await listKeys(context)).map(({ name, id, state, retiresAt }) => ({ name, id, state, retiresAt }))).toEqual([
      { name: 'token-signing', id: 'env', state: 'current', retiresAt: null },
      { name: 'totp-encryption', id: 'env', state: 'current', retiresAt: null },
      { name: 'card-fingerprint', id: 'env', state: 'current', retiresAt: null },
    ]);
  });

  it('rotates: a sealed key signing after the activation delay, the earlier one retiring after the grace, audited; the list shows each state and never a secret', async () => {
    const rotated = await rotateKey(context, ROOTS['token-signing'], 'token-signing', '7d');
    const activatesAt = new Date(context.now.getTime() + KEY_ACTIVATION_DELAY_MS);
    expect(rotated).toEqual({ id: 'k2', activatesAt, previous: { id: 'env', retiresAt: new Date(activatesAt.getTime() + 7 * DAY_MS) } });
    expect(await auditRows()).toEqual([{ operator: 'ops.tester', action: 'key.rotate', key_name: 'token-signing', key_id: 'k2' }]);

    const stored = (await keyRows()).find((row) => row.name === 'token-signing' && row.id === 'k2')!;
    const secret = ringKeyOf(stored, ROOTS['token-signing']).secret;
    expect(secret).toHaveLength(32);
    expect(stored.sealed_secret).not.toContain(secret.toString('hex'));
    const tokenKeys = async (when: number) => (await listKeys(at(when))).filter((key) => key.name === 'token-signing').map((key) => `${key.id} ${key.state}`);
    expect(await tokenKeys(0)).toEqual(['env current', 'k2 next']);
    expect(await tokenKeys(KEY_ACTIVATION_DELAY_MS)).toEqual(['env verifies only', 'k2 current']);
    expect(await tokenKeys(KEY_ACTIVATION_DELAY_MS + 7 * DAY_MS)).toEqual(['env retired', 'k2 current']);
    const listed = JSON.stringify(await listKeys(context));
    for (const secretText of [secret.toString('hex'), secret.toString('base64'), stored.sealed_secret!]) expect(listed).not.toContain(secretText);

    // A later rotation with a shorter grace ends every earlier key by then too.
    const again = await rotateKey(at(2 * KEY_ACTIVATION_DELAY_MS), ROOTS['token-signing'], 'token-signing', '0');
    expect(again.id).toBe('k3');
    expect(
      (await keyRows())
        .filter((row) => row.name === 'token-signing')
        .map((row) => [row.id, row.retires_at === null ? null : new Date(row.retires_at).getTime()]),
    ).toEqual([
      ['env', again.activatesAt.getTime()],
      ['k2', again.activatesAt.getTime()],
      ['k3', null],
    ]);
  });

  it('a card key takes no grace: the earlier card keys keep matching, and the list counts the cards under each', async () => {
    const rotated = await rotateKey(context, ROOTS['card-fingerprint'], 'card-fingerprint', undefined);
    expect(rotated.previous).toEqual({ id: 'env', retiresAt: null });
    const cards = (await listKeys(at(DAY_MS * 1000))).filter((key) => key.name === 'card-fingerprint');
    expect(cards.map((key) => [key.id, key.state, key.cards])).toEqual([
      ['env', 'verifies only', 0],
      ['k2', 'current', 0],
    ]);
  });

  it('refuses an unknown key, a bad grace, a grace for card keys, none for the others, a second rotation still pending and a foreign root, changing nothing', async () => {
    const before = await keyRows();
    const cases: [Promise<unknown>, number, string | RegExp][] = [
      [
        rotateKey(context, ROOTS['token-signing'], 'signing', '1d'),
        64,
        'Unknown key "signing": the keys are token-signing, totp-encryption, card-fingerprint.',
      ],
      [rotateKey(context, ROOTS['token-signing'], 'token-signing', '7 days'), 64, /^--grace "7 days" is not a grace: give 0 or a whole number of minutes/],
      [rotateKey(context, ROOTS['token-signing'], 'token-signing', '400d'), 64, /at most 366d\.$/],
      [rotateKey(context, ROOTS['token-signing'], 'token-signing', '-1d'), 64, /is not a grace/],
      [rotateKey(context, ROOTS['card-fingerprint'], 'card-fingerprint', '1d'), 64, /^card-fingerprint takes no --grace: a card number is never stored/],
      [rotateKey(context, ROOTS['totp-encryption'], 'totp-encryption', undefined), 64, /--grace <0\|90m\|12h\|30d>\.$/],
    ];
    for (const [work, exitCode, message] of cases) {
      const refused = await refusal(work);
      expect(refused.exitCode).toBe(exitCode);
      expect(refused.message).toMatch(message);
    }
    expect(await keyRows()).toEqual(before);

    await rotateKey(context, ROOTS['totp-encryption'], 'totp-encryption', '1d');
    const rotated = await keyRows();
    const pending = await refusal(rotateKey(at(1000), ROOTS['totp-encryption'], 'totp-encryption', '1d'));
    expect(pending.exitCode).toBe(65);
    expect(pending.message).toMatch(/^The totp-encryption key k2 signs from .*; rotate again after that\. Nothing was changed\.$/);
    const foreign = await refusal(rotateKey(at(KEY_ACTIVATION_DELAY_MS), randomBytes(32), 'totp-encryption', '1d'));
    expect(foreign.exitCode).toBe(78);
    expect(foreign.message).toMatch(/^The totp-encryption key k2 does not open under this process's TOTP_ENCRYPTION_KEY/);
    expect(await keyRows()).toEqual(rotated);
    expect(await auditRows()).toHaveLength(1);
  });

  it('is one transaction: when its audit row cannot be written, no key is kept', async () => {
    const before = await keyRows();
    await expect(rotateKey({ ...context, operator: 'x'.repeat(65) }, ROOTS['token-signing'], 'token-signing', '1d')).rejects.toThrow();
    expect(await keyRows()).toEqual(before);
    expect(await auditRows()).toEqual([]);
  });

  it('every instance reads a rotation within its refresh, without a restart; one whose root differs keeps its rings and says why', async () => {
    const instances = [new ServerKeyRings(ROOTS), new ServerKeyRings(ROOTS)];
    const { logger, lines: logged } = capturingLogger();
    const foreign = new ServerKeyRings({ ...ROOTS, 'token-signing': randomBytes(32) });
    const stops = [...instances, foreign].map((rings) => rings.refreshEvery(test.db, logger, 50));
    try {
      await rotateKey(context, ROOTS['token-signing'], 'token-signing', '1d');
      const now = new Date(context.now.getTime() + KEY_ACTIVATION_DELAY_MS);
      await expect.poll(() => instances.map((rings) => rings.token.current(now).id), { timeout: 5000, interval: 50 }).toEqual(['k2', 'k2']);
      await expect.poll(() => logged.join(''), { timeout: 5000, interval: 50 }).toContain('does not open under this process');
      expect(foreign.token.current(now).id).toBe('env');
    } finally {
      for (const stop of stops) stop();
    }
  });
});
