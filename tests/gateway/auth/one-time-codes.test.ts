import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CODE_TTL_MS,
  checkCode,
  checkHeldCode,
  codeHash,
  issueCode,
  MAX_CODE_ATTEMPTS,
  newCode,
  spendCode,
  type HeldCode,
} from '../../../gateway/auth/one-time-codes';
import type { Database } from '../../../gateway/db/database';
import { environmentKey, KeyRing } from '../../../gateway/security/key-ring';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { insertUser } from '../support/test-browser';

/**
 * docs/decisions/0008-sign-in-api.md "One-time codes" (6 digits, single use, 10 minutes, 5 attempts, "Codes asked
 * for again") and docs/decisions/0025-fresh-proof.md (a code is for its site and channel), on the functions
 * themselves: what the sign-in's HTTP tests (sign-in-passcodes.test.ts) cannot reach or cannot time.
 */
const T0 = new Date('2026-03-01T09:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const keyRing = () => new KeyRing('token-signing', [environmentKey(randomBytes(32))]);
/** Another six digits than `code`. */
const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');

describe('newCode (ADR 0008: six random digits)', () => {
  it('is always six digits, a leading zero kept (one code in ten starts with one)', () => {
    const codes = Array.from({ length: 2000 }, () => newCode());
    expect(codes.filter((code) => !/^\d{6}$/.test(code))).toEqual([]);
    expect(codes.some((code) => code.startsWith('0'))).toBe(true);
  });
});

describe('checkHeldCode (a code held on the row of what it proves, ADR 0008 rules)', () => {
  const keys = keyRing();
  const proofId = randomUUID();
  const held = (code: string, expiresAt: Date | string = later(CODE_TTL_MS)): HeldCode => ({
    proof_id: proofId,
    proof_hash: codeHash(keys.current(T0).secret, proofId, code),
    proof_expires_at: expiresAt,
  });
  const counting = (attempts: number | undefined) => vi.fn(async (_proofId: string) => attempts);

  it('the right code is null (accepted), after counting an attempt of its row', async () => {
    const countAttempt = counting(1);
    expect(await checkHeldCode(held('123456'), '123456', { keys, now: T0, countAttempt })).toBeNull();
    expect(countAttempt).toHaveBeenCalledWith(proofId);
  });

  it('a wrong code answers the attempts left after this one', async () => {
    expect(await checkHeldCode(held('123456'), '654321', { keys, now: T0, countAttempt: counting(2) })).toBe(MAX_CODE_ATTEMPTS - 2);
    expect(await checkHeldCode(held('123456'), '654321', { keys, now: T0, countAttempt: counting(MAX_CODE_ATTEMPTS) })).toBe(0);
  });

  it.each([
    ['no id', { proof_id: null }],
    ['no hash', { proof_hash: null }],
    ['no expiry', { proof_expires_at: null }],
  ])('with %s no code was sent: 0 attempts left, even for the code, and no attempt counted', async (_case, missing) => {
    const countAttempt = counting(1);
    expect(await checkHeldCode({ ...held('123456'), ...missing }, '123456', { keys, now: T0, countAttempt })).toBe(0);
    expect(countAttempt).not.toHaveBeenCalled();
  });

  it('valid until its expiry, not at it (an expiry read back as text too); an expired code counts no attempt', async () => {
    const countAttempt = counting(1);
    expect(await checkHeldCode(held('123456', later(CODE_TTL_MS)), '123456', { keys, now: later(CODE_TTL_MS - 1), countAttempt })).toBeNull();
    expect(countAttempt).toHaveBeenCalledTimes(1);
    expect(await checkHeldCode(held('123456', later(CODE_TTL_MS)), '123456', { keys, now: later(CODE_TTL_MS), countAttempt })).toBe(0);
    expect(await checkHeldCode(held('123456', later(CODE_TTL_MS).toISOString()), '123456', { keys, now: later(CODE_TTL_MS), countAttempt })).toBe(0);
    expect(countAttempt).toHaveBeenCalledTimes(1);
    expect(await checkHeldCode(held('123456', later(CODE_TTL_MS).toISOString()), '123456', { keys, now: T0, countAttempt })).toBeNull();
  });

  it('when no attempt could be counted (used up, or a newer code replaced it) even the right code is refused with 0 left', async () => {
    expect(await checkHeldCode(held('123456'), '123456', { keys, now: T0, countAttempt: counting(undefined) })).toBe(0);
  });

  it('ADR 0026: a code hashed under a token key since replaced still works while that key lives, not after it retired', async () => {
    const oldKey = { ...environmentKey(randomBytes(32)), retiresAt: later(CODE_TTL_MS) };
    const newKey = { id: 'k2', secret: randomBytes(32), createdAt: T0, activatesAt: T0, retiresAt: null };
    const rotated = new KeyRing('token-signing', [oldKey, newKey]);
    const underOld: HeldCode = { proof_id: proofId, proof_hash: codeHash(oldKey.secret, proofId, '123456'), proof_expires_at: later(2 * CODE_TTL_MS) };
    expect(await checkHeldCode(underOld, '123456', { keys: rotated, now: later(1000), countAttempt: counting(1) })).toBeNull();
    expect(await checkHeldCode(underOld, '654321', { keys: rotated, now: later(1000), countAttempt: counting(1) })).toBe(MAX_CODE_ATTEMPTS - 1);
    expect(await checkHeldCode(underOld, '123456', { keys: rotated, now: later(CODE_TTL_MS), countAttempt: counting(1) })).toBe(MAX_CODE_ATTEMPTS - 1);
  });
});

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let userId: string;
  const keys = keyRing();
  beforeEach(async () => {
    test = await leg.openMigrated();
    userId = await insertUser(test.db, { email: 'codes@example.com', password: 'Codes#Holder2026', siteId: 'firstbank' });
  });
  afterEach(() => test.dispose());

  const issue = (options: { siteId?: string; channel?: 'email' | 'sms'; now?: Date } = {}) =>
    issueCode(test.db, { userId, siteId: options.siteId ?? 'firstbank', purpose: 'login', channel: options.channel ?? 'email', keys, now: options.now ?? T0 });
  const check = (code: string, options: { now?: Date; consume?: boolean; siteId?: string; channel?: 'email' | 'sms'; db?: Database } = {}) => {
    const { now = T0, db = test.db, ...rest } = options;
    return checkCode(db, { userId, purpose: 'login', code, keys, now, ...rest });
  };
  const rows = async () =>
    (
      await test.db.query<{ id: string; attempts: number; used: boolean }>(
        'select id, attempts, used_at is not null as used from one_time_codes order by created_at',
      )
    ).rows;

  it('with no code ever sent, any code is wrong, with no attempts to spend', async () => {
    expect(await check('123456')).toEqual({ ok: false, error: 'OTP_INVALID', attemptsLeft: 0 });
  });

  it('the right code signs in once and names its row and channel; the code is then spent', async () => {
    const code = await issue({ channel: 'sms' });
    const [row] = await rows();
    expect(await check(code)).toEqual({ ok: true, codeId: row!.id, channel: 'sms' });
    expect(await check(code)).toEqual({ ok: false, error: 'OTP_SPENT', attemptsLeft: 0 });
  });

  it('only six digits are a code: the code with a digit more or less, or not digits, is wrong and spends an attempt', async () => {
    const code = await issue();
    expect(await check(`${code}0`)).toEqual({ ok: false, error: 'OTP_INVALID', attemptsLeft: 4 });
    expect(await check(code.slice(1))).toEqual({ ok: false, error: 'OTP_INVALID', attemptsLeft: 3 });
    expect(await check('abcdef')).toEqual({ ok: false, error: 'OTP_INVALID', attemptsLeft: 2 });
    expect(await check(` ${code}`)).toEqual({ ok: false, error: 'OTP_INVALID', attemptsLeft: 1 });
    expect((await check(code)).ok).toBe(true);
  });

  it('ADR 0025: a code sent for another site, or by another channel, is a wrong code (attempt and answer alike)', async () => {
    const code = await issue({ siteId: 'firstbank', channel: 'email' });
    expect(await check(code, { siteId: 'eurobank' })).toEqual({ ok: false, error: 'OTP_INVALID', attemptsLeft: 4 });
    expect(await check(code, { channel: 'sms' })).toEqual({ ok: false, error: 'OTP_INVALID', attemptsLeft: 3 });
    expect(await check(code, { siteId: 'eurobank', channel: 'email' })).toEqual({ ok: false, error: 'OTP_INVALID', attemptsLeft: 2 });
    expect(await check(code, { siteId: 'firstbank', channel: 'sms' })).toEqual({ ok: false, error: 'OTP_INVALID', attemptsLeft: 1 });
    expect(await check(code, { siteId: 'firstbank', channel: 'email' })).toMatchObject({ ok: true, channel: 'email' });
  });

  it('ADR 0025: of two live codes, the one sent for this site and channel is the one that matches', async () => {
    const bySms = await issue({ channel: 'sms' });
    const byEmail = await issue({ channel: 'email', now: later(1000) });
    expect(await check(bySms, { channel: 'email', now: later(2000) })).toMatchObject({ ok: false, error: 'OTP_INVALID' });
    expect(await check(byEmail, { channel: 'email', now: later(2000) })).toMatchObject({ ok: true, channel: 'email' });
  });

  it('ADR 0009 find-code: consume false checks the right code without spending it; spendCode then spends it and its siblings', async () => {
    const older = await issue();
    const code = await issue({ now: later(1000) });
    const found = await check(code, { consume: false, now: later(2000) });
    expect(found).toMatchObject({ ok: true });
    expect(await check(code, { consume: false, now: later(2000) })).toEqual(found);
    expect((await rows()).map((row) => row.used)).toEqual([false, false]);
    expect(await spendCode(test.db, found.ok ? found.codeId : '', later(3000))).toBe(true);
    expect((await rows()).map((row) => row.used)).toEqual([true, true]);
    expect(await spendCode(test.db, found.ok ? found.codeId : '', later(3000))).toBe(false);
    expect(await check(older, { now: later(4000) })).toEqual({ ok: false, error: 'OTP_SPENT', attemptsLeft: 0 });
  });

  it('a used code stays refused even beside a live newer one (it is never matched again)', async () => {
    const older = await issue();
    const newer = await issue({ now: later(1000) });
    const [first] = await rows();
    await test.db.query('update one_time_codes set used_at = $2 where id = $1', [first!.id, later(1500)]);
    // One time in a million the two codes are the same six digits, and the newer one rightly signs in.
    if (newer === older) return;
    expect(await check(older, { now: later(2000) })).toEqual({ ok: false, error: 'OTP_INVALID', attemptsLeft: 4 });
  });

  it('ADR 0008: the code lives 10 minutes to the millisecond', async () => {
    const code = await issue();
    expect((await check(otherThan(code), { now: later(CODE_TTL_MS - 1) })).ok).toBe(false);
    expect(await check(code, { now: later(CODE_TTL_MS) })).toEqual({ ok: false, error: 'OTP_EXPIRED', attemptsLeft: 0 });
    expect(await check(code, { now: later(CODE_TTL_MS - 1) })).toMatchObject({ ok: true });
  });

  it('attempts used up: Retry-After is the seconds until the spent code lapses, rounded up', async () => {
    const code = await issue();
    for (let attempt = 1; attempt <= MAX_CODE_ATTEMPTS; attempt += 1) await check(otherThan(code));
    expect(await check(code, { now: later(60_500) })).toEqual({ ok: false, error: 'OTP_SPENT', attemptsLeft: 0, retryAfterSeconds: 540 });
    expect(await check(code, { now: later(CODE_TTL_MS - 1) })).toEqual({ ok: false, error: 'OTP_SPENT', attemptsLeft: 0, retryAfterSeconds: 1 });
  });

  it('ADR 0008 single use: a check that read the code before a racing check used it is told it is spent (not to wait), and spends no attempt', async () => {
    const code = await issue();
    const [row] = await rows();
    // The racing check signs in between this check's read and its count of the attempt.
    const racing: Database = {
      ...test.db,
      query: async (sql, params) => {
        const result = await test.db.query(sql, params);
        if (sql.startsWith('select id, code_hash')) expect(await spendCode(test.db, row!.id, T0)).toBe(true);
        return result as never;
      },
    };
    expect(await check(code, { db: racing })).toEqual({ ok: false, error: 'OTP_SPENT', attemptsLeft: 0 });
    expect(await rows()).toEqual([{ id: row!.id, attempts: 0, used: true }]);
  });

  it('a code dropped while it is checked (a fourth code asked for at that moment) is refused as spent, never a server error', async () => {
    const code = await issue();
    const dropping: Database = {
      ...test.db,
      query: async (sql, params) => {
        const result = await test.db.query(sql, params);
        if (sql.startsWith('select id, code_hash')) await test.db.query('delete from one_time_codes');
        return result as never;
      },
    };
    expect(await check(code, { db: dropping, now: later(1000) })).toEqual({ ok: false, error: 'OTP_SPENT', attemptsLeft: 0, retryAfterSeconds: 599 });
  });
});
