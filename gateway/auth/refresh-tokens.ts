import { randomBytes, randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { sessionIdOf } from './session-store';

/**
 * How long a refresh token may wait for its turn; every use replaces it (rotation). Also how long a sign-in lasts
 * at most, however often it is refreshed (ADR 0025 "A sign-in's age"): no token outlives its sign-in by more.
 */
export const REFRESH_TOKEN_TTL_MS = 8 * 60 * 60_000;

export interface RefreshGrant {
  userId: string;
  siteId: string;
  familyId: string;
  /** When the person signed in: the chain's start, carried by every rotation. */
  signedInAt: Date;
}

/** Stores the SHA-256 of a new refresh token, in `familyId` (a rotation) or a new family (a sign-in). */
export async function issueRefreshToken(
  db: Queryable,
  options: { userId: string; siteId: string; sessionToken: string; familyId?: string; now: Date; signedInAt: Date },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `insert into refresh_tokens (id, family_id, user_id, site_id, session_id, created_at, expires_at, signed_in_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      sessionIdOf(token),
      options.familyId ?? randomUUID(),
      options.userId,
      options.siteId,
      sessionIdOf(options.sessionToken),
      options.now,
      new Date(Math.min(options.now.getTime(), options.signedInAt.getTime()) + REFRESH_TOKEN_TTL_MS),
      options.signedInAt,
    ],
  );
  return token;
}

/**
 * Spends a refresh token (ADR 0008 rotation). A token already used, or revoked, is a replay: its
 * whole family and the sessions it opened are revoked and null returned (INVALID_GRANT), so a
 * stolen token dies with the real one.
 */
export async function spendRefreshToken(db: Database, token: string, now: Date): Promise<RefreshGrant | null> {
  return db.transaction(async (tx) => {
    const id = sessionIdOf(token);
    const spent = await tx.query<{ user_id: string; site_id: string; family_id: string; session_id: string | null; signed_in_at: Date | string }>(
      `update refresh_tokens set used_at = $2
        where id = $1 and used_at is null and revoked_at is null and expires_at > $2
        returning user_id, site_id, family_id, session_id, coalesce(signed_in_at, created_at) as signed_in_at`,
      [id, now],
    );
    const row = spent.rows[0];
    if (row) {
      // The refresh opens the session that replaces this one (ADR 0017): the old one ends here.
      if (row.session_id !== null) await tx.query('update sessions set revoked_at = $2 where id = $1 and revoked_at is null', [row.session_id, now]);
      return { userId: row.user_id, siteId: row.site_id, familyId: row.family_id, signedInAt: new Date(row.signed_in_at) };
    }
    // A replay: the family's tokens and every session they opened end here.
    await tx.query(
      `update sessions set revoked_at = $2
        where revoked_at is null
          and id in (select session_id from refresh_tokens where family_id in (select family_id from refresh_tokens where id = $1))`,
      [id, now],
    );
    await tx.query('update refresh_tokens set revoked_at = $2 where family_id in (select family_id from refresh_tokens where id = $1) and revoked_at is null', [
      id,
      now,
    ]);
    return null;
  });
}

/** The site a refresh token was issued for, or null for a token nobody issued. */
export async function refreshTokenSite(db: Queryable, token: string): Promise<string | null> {
  const found = await db.query<{ site_id: string }>('select site_id from refresh_tokens where id = $1', [sessionIdOf(token)]);
  return found.rows[0]?.site_id ?? null;
}

/** Logout: every family a token of which was issued with this session, and the family of `token`. */
export async function revokeRefreshTokens(db: Queryable, options: { sessionToken?: string; refreshToken?: string; now: Date }): Promise<void> {
  const ids = [options.sessionToken, options.refreshToken].filter((value): value is string => value !== undefined).map(sessionIdOf);
  if (ids.length === 0) return;
  await db.query(
    `update refresh_tokens set revoked_at = $2
      where revoked_at is null
        and family_id in (select family_id from refresh_tokens where id = any($1::text[]) or session_id = any($1::text[]))`,
    [ids, options.now],
  );
}
