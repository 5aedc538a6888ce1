import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database';

/** How long a sign-in lasts; also the access token's `expires_in` (SPEC §3, §4 refresh). */
export const SESSION_TTL_SECONDS = 30 * 60;

export interface SessionUser {
  sessionId: string;
  userId: string;
  /** The site the session was opened on. */
  siteId: string;
  email: string;
  roles: string[];
  expiresAt: Date;
}

export interface OpenedSession {
  /** The secret the SESSION cookie carries; only its SHA-256 is stored. */
  token: string;
  expiresAt: Date;
}

/** The stored id of a session token: a table leak cannot be replayed as a cookie. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function openSession(db: Queryable, userId: string, siteId: string, now: Date): Promise<OpenedSession> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000);
  await db.query('insert into sessions (id, user_id, site_id, created_at, expires_at) values ($1, $2, $3, $4, $5)', [
    sessionIdOf(token),
    userId,
    siteId,
    now,
    expiresAt,
  ]);
  return { token, expiresAt };
}

/** The user behind a live session token, or null when it is unknown, expired or revoked. */
export async function findSessionUser(db: Queryable, token: string, now: Date): Promise<SessionUser | null> {
  const result = await db.query<{ session_id: string; user_id: string; site_id: string; email: string; roles: string[]; expires_at: Date | string }>(
    `select s.id as session_id, s.user_id, s.site_id, u.email, u.roles, s.expires_at
       from sessions s join users u on u.id = s.user_id
      where s.id = $1 and s.revoked_at is null and s.expires_at > $2`,
    [sessionIdOf(token), now],
  );
  const row = result.rows[0];
  if (!row) return null;
  return { sessionId: row.session_id, userId: row.user_id, siteId: row.site_id, email: row.email, roles: row.roles, expiresAt: new Date(row.expires_at) };
}

export async function revokeSession(db: Queryable, token: string, now: Date): Promise<void> {
  await db.query('update sessions set revoked_at = $2 where id = $1 and revoked_at is null', [sessionIdOf(token), now]);
}
