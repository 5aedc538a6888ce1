import { createHash, randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database';

/** ADR 0009 "Activation": 32 random bytes, stored hashed, single use, valid 48 hours. */
export const ACTIVATION_TOKEN_TTL_MS = 48 * 60 * 60_000;
/** base64url of 32 bytes. */
export const ACTIVATION_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';

export type ActivationResult = { ok: true; userId: string } | { ok: false; error: 'TOKEN_INVALID' | 'TOKEN_EXPIRED' };

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

/**
 * Spends the token and sets its user ACTIVE. The spend is a conditional update, so two racing
 * calls with one token activate once and the other answers TOKEN_INVALID.
 */
export async function activateWithToken(db: Database, token: string, now: Date): Promise<ActivationResult> {
  return db.transaction(async (tx) => {
    const found = await tx.query<{ user_id: string; expires_at: Date | string; used_at: Date | string | null }>(
      'select user_id, expires_at, used_at from activation_tokens where id = $1',
      [tokenIdOf(token)],
    );
    const row = found.rows[0];
    if (!row || row.used_at !== null) return { ok: false, error: 'TOKEN_INVALID' };
    if (new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, error: 'TOKEN_EXPIRED' };
    const spent = await tx.query('update activation_tokens set used_at = $2 where id = $1 and used_at is null returning id', [tokenIdOf(token), now]);
    if (spent.rows.length === 0) return { ok: false, error: 'TOKEN_INVALID' };
    await tx.query(`update users set status = 'ACTIVE', updated_at = $2 where id = $1 and status = 'INACTIVE'`, [row.user_id, now]);
    return { ok: true, userId: row.user_id };
  });
}
