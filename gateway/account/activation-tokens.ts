import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import type { KeyRing } from '../security/key-ring';
import { verifyPassword } from '../security/password-hashing';

/** ADR 0009 "Activation": 32 random bytes, stored hashed, single use, valid 48 hours. */
export const ACTIVATION_TOKEN_TTL_MS = 48 * 60 * 60_000;
/** base64url of 32 bytes. */
export const ACTIVATION_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';
/** ADR 0009 "Activation": wrong passwords one link allows, as a mailed code allows wrong codes (ADR 0008); the last spends it. */
export const ACTIVATION_PASSWORD_ATTEMPTS = 5;

export type ActivationResult =
  | { ok: true; userId: string }
  | { ok: false; error: 'TOKEN_INVALID' | 'TOKEN_EXPIRED' | 'ALREADY_ACTIVE' }
  | { ok: false; error: 'PASSWORD_INCORRECT'; attemptsLeft: number };

function tokenIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * ADR 0012 "A job run twice": the token of one `activation-email` job, the same on every run of it, so a
 * run repeated after a crash mails the link the first run mailed. An HMAC of the job's id under the
 * token signing key (a label keeps it apart from the key's other uses): nobody without the key can
 * compute it from the id, and the database still holds only its hash. ADR 0026: the user's link made
 * under any live token key is the job's (a run repeated across a rotation keeps the first run's link);
 * none yet: the current key's.
 */
export async function activationTokenOfJob(db: Queryable, keys: KeyRing, now: Date, userId: string, jobId: string): Promise<string> {
  const tokenUnder = (key: Buffer) => createHmac('sha256', key).update(`activation-link\0${jobId}`).digest('base64url');
  const candidates = keys.live(now).map((key) => tokenUnder(key.secret));
  const issued = await db.query<{ id: string }>('select id from activation_tokens where user_id = $1 and id = any($2::text[])', [
    userId,
    candidates.map(tokenIdOf),
  ]);
  return candidates.find((token) => issued.rows.some((row) => row.id === tokenIdOf(token))) ?? tokenUnder(keys.current(now).secret);
}

/**
 * The user's link with `token` (a fresh random one by default); every other link of the user stops
 * working. Issuing a token the user already holds keeps it as it is (its expiry and wrong-password
 * count), so a repeated job neither voids nor renews its own link. Returns the token for the link only.
 */
export async function issueActivationToken(db: Queryable, userId: string, now: Date, token = randomBytes(32).toString('base64url')): Promise<string> {
  const tokenId = tokenIdOf(token);
  await db.query('delete from activation_tokens where user_id = $1 and id <> $2', [userId, tokenId]);
  await db.query('insert into activation_tokens (id, user_id, created_at, expires_at) values ($1, $2, $3, $4) on conflict (id) do nothing', [
    tokenId,
    userId,
    now,
    new Date(now.getTime() + ACTIVATION_TOKEN_TTL_MS),
  ]);
  return token;
}

/** A live link of an address, as stored (its hash, never the token): what a new registration of the address carries over. */
export interface StoredActivationToken {
  id: string;
  created_at: Date | string;
  expires_at: Date | string;
  password_attempts: number;
}

/** The user's links that still work: unspent and unexpired. */
export async function liveActivationTokens(db: Queryable, userId: string, now: Date): Promise<StoredActivationToken[]> {
  const found = await db.query<StoredActivationToken>(
    'select id, created_at, expires_at, password_attempts from activation_tokens where user_id = $1 and used_at is null and expires_at > $2',
    [userId, now],
  );
  return found.rows;
}

/** Gives `userId` the links of `tokens` (read from the account it replaces), wrong-password counts included. */
export async function carryActivationTokens(db: Queryable, userId: string, tokens: readonly StoredActivationToken[]): Promise<void> {
  for (const token of tokens) {
    await db.query('insert into activation_tokens (id, user_id, created_at, expires_at, password_attempts) values ($1, $2, $3, $4, $5)', [
      token.id,
      userId,
      token.created_at,
      token.expires_at,
      token.password_attempts,
    ]);
  }
}

/**
 * ADR 0009 "Activation": the link proves the mailbox, `password` that whoever opens it chose the
 * account's password; only both together set the user ACTIVE. A wrong password spends one of the
 * link's 5 attempts (the 5th spends the link) and activates nothing. The account's row is locked
 * first, then the link's, the order every other change of an unproved account takes (a new
 * registration, a resend, a reset, an SSO sign-in: `unproved-accounts.ts`), so they wait for each
 * other instead of deadlocking. Two racing calls with one token activate once and the other answers
 * TOKEN_INVALID, and racing wrong passwords cannot exceed the attempts. Success spends every link of
 * the account. A link of an account that is already active (opened again from the mail) answers ALREADY_ACTIVE, so
 * its holder is sent to sign in rather than to ask for a link that cannot help: only the link's holder learns it.
 */
export async function activateWithToken(db: Database, token: string, password: string, now: Date): Promise<ActivationResult> {
  const tokenId = tokenIdOf(token);
  return db.transaction(async (tx) => {
    const owner = await tx.query<{ user_id: string }>('select user_id from activation_tokens where id = $1', [tokenId]);
    const userId = owner.rows[0]?.user_id;
    if (userId === undefined) return { ok: false, error: 'TOKEN_INVALID' };
    const user = await tx.query<{ password_hash: string; status: string }>('select password_hash, status from users where id = $1 for update', [userId]);
    const link = await tx.query<{ expires_at: Date | string; used_at: Date | string | null; password_attempts: number }>(
      'select expires_at, used_at, password_attempts from activation_tokens where id = $1 and user_id = $2 for update',
      [tokenId, userId],
    );
    const account = user.rows[0];
    const row = link.rows[0];
    if (account && row && account.status === 'ACTIVE') return { ok: false, error: 'ALREADY_ACTIVE' };
    if (!account || !row || row.used_at !== null || account.status !== 'INACTIVE') return { ok: false, error: 'TOKEN_INVALID' };
    if (new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, error: 'TOKEN_EXPIRED' };
    if (!(await verifyPassword(account.password_hash, password))) {
      const attempts = row.password_attempts + 1;
      await tx.query('update activation_tokens set password_attempts = $2, used_at = $3 where id = $1', [
        tokenId,
        attempts,
        attempts >= ACTIVATION_PASSWORD_ATTEMPTS ? now : null,
      ]);
      return { ok: false, error: 'PASSWORD_INCORRECT', attemptsLeft: Math.max(0, ACTIVATION_PASSWORD_ATTEMPTS - attempts) };
    }
    await tx.query('update activation_tokens set used_at = $2 where user_id = $1 and used_at is null', [userId, now]);
    await tx.query(`update users set status = 'ACTIVE', updated_at = $2 where id = $1 and status = 'INACTIVE'`, [userId, now]);
    return { ok: true, userId };
  });
}
