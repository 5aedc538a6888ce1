import { createHash, randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { verifyPassword } from '../security/password-hashing';

/** ADR 0009 "Activation": 32 random bytes, stored hashed, single use, valid 48 hours. */
export const ACTIVATION_TOKEN_TTL_MS = 48 * 60 * 60_000;
/** base64url of 32 bytes. */
export const ACTIVATION_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';
/** ADR 0009 "Activation": wrong passwords one link allows, as a mailed code allows wrong codes (ADR 0008); the last spends it. */
export const ACTIVATION_PASSWORD_ATTEMPTS = 5;

export type ActivationResult =
  { ok: true; userId: string } | { ok: false; error: 'TOKEN_INVALID' | 'TOKEN_EXPIRED' } | { ok: false; error: 'PASSWORD_INCORRECT'; attemptsLeft: number };

function tokenIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A fresh token for the user; the previous one stops working. Returns the token for the link only. */
export async function issueActivationToken(db: Queryable, userId: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query('delete from activation_tokens where user_id = $1', [userId]);
  await db.query('insert into activation_tokens (id, user_id, created_at, expires_at) values ($1, $2, $3, $4)', [
    tokenIdOf(token),
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
 * link's 5 attempts (the 5th spends the link) and activates nothing. The token row is locked for the
 * check, so two racing calls with one token activate once and the other answers TOKEN_INVALID, and
 * racing wrong passwords cannot exceed the attempts. Success spends every link of the account.
 */
export async function activateWithToken(db: Database, token: string, password: string, now: Date): Promise<ActivationResult> {
  return db.transaction(async (tx) => {
    const found = await tx.query<{
      user_id: string;
      expires_at: Date | string;
      used_at: Date | string | null;
      password_attempts: number;
      password_hash: string;
      status: string;
    }>(
      `select t.user_id, t.expires_at, t.used_at, t.password_attempts, u.password_hash, u.status
         from activation_tokens t join users u on u.id = t.user_id
        where t.id = $1
          for update of t`,
      [tokenIdOf(token)],
    );
    const row = found.rows[0];
    if (!row || row.used_at !== null || row.status !== 'INACTIVE') return { ok: false, error: 'TOKEN_INVALID' };
    if (new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, error: 'TOKEN_EXPIRED' };
    if (!(await verifyPassword(row.password_hash, password))) {
      const attempts = row.password_attempts + 1;
      await tx.query('update activation_tokens set password_attempts = $2, used_at = $3 where id = $1', [
        tokenIdOf(token),
        attempts,
        attempts >= ACTIVATION_PASSWORD_ATTEMPTS ? now : null,
      ]);
      return { ok: false, error: 'PASSWORD_INCORRECT', attemptsLeft: Math.max(0, ACTIVATION_PASSWORD_ATTEMPTS - attempts) };
    }
    await tx.query('update activation_tokens set used_at = $2 where user_id = $1 and used_at is null', [row.user_id, now]);
    await tx.query(`update users set status = 'ACTIVE', updated_at = $2 where id = $1 and status = 'INACTIVE'`, [row.user_id, now]);
    return { ok: true, userId: row.user_id };
  });
}
