import type { Queryable } from '../db/database';
import { verifyPassword } from '../security/password-hashing';

/** SPEC §2 password, ADR 0009 PASSWORD_REUSED: a new password may not be one of the last 4. */
export const PASSWORD_HISTORY_DEPTH = 4;

export async function recordPasswordHash(db: Queryable, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db.query('insert into password_history (user_id, password_hash, created_at) values ($1, $2, $3)', [userId, passwordHash, now]);
}

/**
 * Whether `password` is the current password or one of the last 4 in the history. The current
 * hash is checked too, for accounts created before the history existed (seeded users).
 */
export async function isRecentPassword(db: Queryable, userId: string, password: string): Promise<boolean> {
  const found = await db.query<{ password_hash: string }>(
    `(select password_hash from users where id = $1)
     union
     (select password_hash from password_history where user_id = $1 order by created_at desc limit $2)`,
    [userId, PASSWORD_HISTORY_DEPTH],
  );
  for (const row of found.rows) {
    if (await verifyPassword(row.password_hash, password)) return true;
  }
  return false;
}
