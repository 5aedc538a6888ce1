import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import type { MessageChannel } from '../mail/mailer';
import type { KeyRing } from '../security/key-ring';

/**
 * ADR 0008: 6 digits, single use, valid 10 minutes, at most 5 attempts. A new code does not void the ones already
 * sent ("Codes asked for again"): a text or mail can be slow, and a person who reloads or asks again must be able to
 * type the code already on their phone. The attempts are shared by the live codes of a user and purpose, so asking
 * again never buys more guesses, and at most `MAX_LIVE_CODES` are live at once.
 */
export const CODE_TTL_MS = 10 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;
export const MAX_LIVE_CODES = 3;

/**
 * `login`: the second step of a sign-in; `otp-check`: a signed-in re-check (SPEC §2 otp-check-*);
 * `recovery`: a forgotten password (ADR 0009 "Recovery").
 */
export type CodePurpose = 'login' | 'otp-check' | 'recovery';

/**
 * `OTP_SPENT`: the code can no longer be checked at all, right or wrong: it was used, or its attempts are used up.
 * Distinct from `OTP_INVALID` so that a right code typed after five wrong ones is not told it is wrong (ADR 0008);
 * `retryAfterSeconds`, when the attempts are used up, is when the spent codes lapse and a new code will work.
 */
export type CodeCheck =
  | { ok: true; codeId: string; channel: MessageChannel }
  | { ok: false; error: 'OTP_INVALID' | 'OTP_EXPIRED' | 'OTP_SPENT'; attemptsLeft: number; retryAfterSeconds?: number };

/**
 * Stores a fresh code for the user and purpose and returns it to be sent. The codes still live stay valid (the
 * oldest beyond `MAX_LIVE_CODES` - 1 are dropped, with every used or expired one), and the new code starts with the
 * attempts already spent on them. `siteId` and `channel` are what the code is for
 * (docs/decisions/0025-fresh-proof.md): `checkCode` refuses it on another site or named as another channel.
 */
export async function issueCode(
  db: Database,
  options: { userId: string; siteId: string; purpose: CodePurpose; channel: MessageChannel; keys: KeyRing; now: Date },
): Promise<string> {
  const { userId, siteId, purpose, channel, keys, now } = options;
  const id = randomUUID();
  const code = newCode();
  await db.transaction(async (tx) => {
    const live = await tx.query<{ id: string; attempts: number }>(
      `select id, attempts from one_time_codes where user_id = $1 and purpose = $2 and used_at is null and expires_at > $3
       order by created_at desc for update`,
      [userId, purpose, now],
    );
    const kept = live.rows.slice(0, MAX_LIVE_CODES - 1).map((row) => row.id);
    await tx.query('delete from one_time_codes where user_id = $1 and purpose = $2 and not (id = any($3::uuid[]))', [userId, purpose, kept]);
    const attempts = Math.max(0, ...live.rows.map((row) => row.attempts));
    await tx.query(
      `insert into one_time_codes (id, user_id, site_id, purpose, channel, code_hash, expires_at, created_at, attempts)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [id, userId, siteId, purpose, channel, codeHash(keys.current(now).secret, id, code), new Date(now.getTime() + CODE_TTL_MS), now, attempts],
    );
  });
  return code;
}

interface CodeRow {
  id: string;
  code_hash: string;
  expires_at: Date | string;
  used_at: Date | string | null;
  site_id: string | null;
  channel: MessageChannel;
}

/**
 * Checks `code` against the user's live codes for `purpose`. A wrong code spends an attempt of them all (counted
 * on the newest, which carries the count of the older ones); a right one is spent itself with the others, unless
 * `consume` is false (ADR 0009 `find-code` checks the code that `change-password-from-passcode` then spends with
 * `spendCode`). Both updates are conditional, so two racing checks cannot use one code twice or exceed the
 * attempts. With `siteId` or `channel`, a code sent for another site or by another channel is a wrong code,
 * attempt and answer alike (docs/decisions/0025-fresh-proof.md "Channels come from the site").
 */
export async function checkCode(
  db: Database,
  options: { userId: string; purpose: CodePurpose; code: string; keys: KeyRing; now: Date; consume?: boolean; siteId?: string; channel?: MessageChannel },
): Promise<CodeCheck> {
  const { userId, purpose, code, keys, now } = options;
  const found = await db.query<CodeRow>(
    'select id, code_hash, expires_at, used_at, site_id, channel from one_time_codes where user_id = $1 and purpose = $2 order by created_at desc limit $3',
    [userId, purpose, MAX_LIVE_CODES],
  );
  const newest = found.rows[0];
  if (!newest) return { ok: false, error: 'OTP_INVALID', attemptsLeft: 0 };
  if (newest.used_at !== null) return { ok: false, error: 'OTP_SPENT', attemptsLeft: 0 };
  const live = found.rows.filter((row) => row.used_at === null && new Date(row.expires_at).getTime() > now.getTime());
  if (live.length === 0) return { ok: false, error: 'OTP_EXPIRED', attemptsLeft: 0 };
  const counter = live[0]!;

  const spent = await db.query<{ attempts: number }>(
    'update one_time_codes set attempts = attempts + 1 where id = $1 and attempts < $2 and used_at is null returning attempts',
    [counter.id, MAX_CODE_ATTEMPTS],
  );
  const attempts = spent.rows[0]?.attempts;
  if (attempts === undefined) {
    // A check racing the one that used this code (read before it was spent) is told it is spent, not told to wait:
    // the other check signed in.
    const used = await db.query<{ used_at: Date | null }>('select used_at from one_time_codes where id = $1', [counter.id]);
    if (used.rows[0]?.used_at != null) return { ok: false, error: 'OTP_SPENT', attemptsLeft: 0 };
    // "Codes asked for again": a new code shares these spent attempts until the newest live code expires.
    const retryAfterSeconds = Math.max(1, Math.ceil((new Date(counter.expires_at).getTime() - now.getTime()) / 1000));
    return { ok: false, error: 'OTP_SPENT', attemptsLeft: 0, retryAfterSeconds };
  }

  const sentFor = (row: CodeRow) =>
    (options.siteId === undefined || row.site_id === options.siteId) && (options.channel === undefined || row.channel === options.channel);
  // Every live code is compared, so the time taken does not tell which one matched.
  // Stryker disable next-line Regex: a looser pattern lets no other code match, as the keyed hash covers the whole code
  const matching = live.filter((row) => /^\d{6}$/.test(code) && hashedUnderALiveKey(row.code_hash, keys, now, row.id, code));
  const match = matching.find(sentFor);
  if (match) {
    if (options.consume === false || (await spendCode(db, match.id, now))) return { ok: true, codeId: match.id, channel: match.channel };
    return { ok: false, error: 'OTP_SPENT', attemptsLeft: 0 };
  }
  return { ok: false, error: 'OTP_INVALID', attemptsLeft: MAX_CODE_ATTEMPTS - attempts };
}

/**
 * Marks a checked code used, and with it the other live codes of its user and purpose: what they were sent for is
 * done. False when a racing call used it first.
 */
export async function spendCode(db: Queryable, codeId: string, now: Date): Promise<boolean> {
  const used = await db.query<{ user_id: string; purpose: string }>(
    'update one_time_codes set used_at = $2 where id = $1 and used_at is null returning user_id, purpose',
    [codeId, now],
  );
  const spent = used.rows[0];
  if (spent === undefined) return false;
  await db.query('update one_time_codes set used_at = $3 where user_id = $1 and purpose = $2 and used_at is null', [spent.user_id, spent.purpose, now]);
  return true;
}

/** Six random digits (ADR 0008); also the code that proves an EMAIL alias (gateway/account/alias-proof.ts). */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** A code kept on the row of what it proves (an EMAIL alias, a new phone): its id, keyed hash and expiry, or nulls before one was sent. */
export interface HeldCode {
  proof_id: string | null;
  proof_hash: string | null;
  proof_expires_at: Date | string | null;
}

/**
 * Checks `code` against a code held on its own row (ADR 0008 rules, as `checkCode`): null when it is right, else the
 * attempts left, 0 for no code, an expired one or one out of attempts. `countAttempt` adds one to the row's attempts
 * only while the code is the one read and attempts remain, and answers the new count (undefined when it did not), so
 * two racing checks cannot pass the attempts.
 */
export async function checkHeldCode(
  held: HeldCode,
  code: string,
  options: { keys: KeyRing; now: Date; countAttempt: (proofId: string) => Promise<number | undefined> },
): Promise<number | null> {
  const { proof_id: proofId, proof_hash: hash, proof_expires_at: expiresAt } = held;
  // Stryker disable next-line ConditionalExpression: a null expiry reads as 1970 below and answers 0 alike, before any attempt is counted
  if (proofId === null || hash === null || expiresAt === null) return 0;
  if (new Date(expiresAt).getTime() <= options.now.getTime()) return 0;
  const attempts = await options.countAttempt(proofId);
  if (attempts === undefined) return 0;
  return hashedUnderALiveKey(hash, options.keys, options.now, proofId, code) ? null : MAX_CODE_ATTEMPTS - attempts;
}

/**
 * ADR 0026: whether `hash` is the code's under one of the token keys still live, all of them compared (the time
 * taken does not tell which): a code sent just before a rotation still works.
 */
function hashedUnderALiveKey(hash: string, keys: KeyRing, now: Date, id: string, code: string): boolean {
  const stored = Buffer.from(hash, 'hex');
  return keys
    .live(now)
    .map((key) => timingSafeEqual(stored, Buffer.from(codeHash(key.secret, id, code), 'hex')))
    .includes(true);
}

/** The keyed hash a code is stored as (under the current token key), salted with the id of the row that holds it. */
export function codeHash(key: Buffer, id: string, code: string): string {
  return createHmac('sha256', key).update(`one-time-code:${id}:${code}`).digest('hex');
}
