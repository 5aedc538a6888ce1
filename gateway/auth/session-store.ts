import { createHash, randomBytes } from 'node:crypto';
import type { UserProfile } from '../../schemas/entities/user-profile';
import type { Queryable } from '../db/database';
import { PROFILE_COLUMNS, profileOf, type ProfileRow } from '../profile/user-profile';

/** SPEC §4: ROLE_CONCIERGE is a support agent. */
export const CONCIERGE_ROLE = 'ROLE_CONCIERGE';

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
  /** ADR 0014: a support agent's session. */
  isAgent: boolean;
  /** An agent's session: whether the session's site is still granted to them (ADR 0017); true for card holders. */
  siteGranted: boolean;
  /** ADR 0014: the card holder an agent's session acts for. */
  actingForUserId: string | null;
  /** ADR 0009: the account signed in with a breached password and must replace it first (SPEC §2 compromised-credentials). */
  passwordChangeRequired: boolean;
  /** When the person signed in: the start of the chain of refreshes this session is part of (ADR 0025). */
  signedInAt: Date;
  /** SPEC §3 "User profile" of the session's user, as the session was found. */
  profile: UserProfile;
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

/** A sign-in lasts at most this long, however often it is refreshed (ADR 0025 "A sign-in's age"). */
export const SIGN_IN_MAX_AGE_MS = 8 * 60 * 60_000;

/**
 * Opens a session of a sign-in made at `signedInAt` (now, or the refreshed chain's start): it lasts 30 minutes,
 * and never past the sign-in's 8 hours.
 */
export async function openSession(db: Queryable, userId: string, siteId: string, now: Date, signedInAt: Date = now): Promise<OpenedSession> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Math.min(now.getTime() + SESSION_TTL_SECONDS * 1000, signedInAt.getTime() + SIGN_IN_MAX_AGE_MS));
  await db.query('insert into sessions (id, user_id, site_id, created_at, expires_at, signed_in_at) values ($1, $2, $3, $4, $5, $6)', [
    sessionIdOf(token),
    userId,
    siteId,
    now,
    expiresAt,
    signedInAt,
  ]);
  return { token, expiresAt };
}

/**
 * The user behind a live session token, or null when it is unknown, expired or revoked: one query
 * (one round trip, ADR 0003) for the session, its user with their profile and an agent's grant of the
 * session's site (ADR 0017), so a read of one's own profile needs no second look-up. The card holder
 * an agent acts for is read by the calls that need them: joining `users` a second time here made this
 * query, so every signed-in call, about 0.3 ms slower on PGlite and PostgreSQL alike.
 */
export async function findSessionUser(db: Queryable, token: string, now: Date): Promise<SessionUser | null> {
  const result = await db.query<
    ProfileRow & {
      session_id: string;
      user_id: string;
      site_id: string;
      roles: string[];
      expires_at: Date | string;
      signed_in_at: Date | string;
      acting_for_user_id: string | null;
      site_granted: boolean;
      password_change_required: boolean;
    }
  >(
    `select s.id as session_id, s.user_id, s.site_id, s.expires_at, coalesce(s.signed_in_at, s.created_at) as signed_in_at, s.acting_for_user_id,
            u.roles, u.password_change_required,
            ${PROFILE_COLUMNS.map((column) => `u.${column}`).join(', ')},
            exists (select 1 from agent_site_grants g where g.user_id = s.user_id and g.site_id = s.site_id) as site_granted
       from sessions s join users u on u.id = s.user_id
      where s.id = $1 and s.revoked_at is null and s.expires_at > $2`,
    [sessionIdOf(token), now],
  );
  const row = result.rows[0];
  if (!row) return null;
  const isAgent = row.roles.includes(CONCIERGE_ROLE);
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    siteId: row.site_id,
    email: row.email,
    roles: row.roles,
    expiresAt: new Date(row.expires_at),
    isAgent,
    siteGranted: !isAgent || row.site_granted,
    actingForUserId: row.acting_for_user_id,
    passwordChangeRequired: row.password_change_required,
    signedInAt: new Date(row.signed_in_at),
    profile: profileOf(row.user_id, row),
  };
}

export async function revokeSession(db: Queryable, token: string, now: Date): Promise<void> {
  await db.query('update sessions set revoked_at = $2 where id = $1 and revoked_at is null', [sessionIdOf(token), now]);
}

/**
 * Ends every session of the user but `keepSessionId` (the caller's own, after a password change) and the refresh
 * tokens issued with them, and forgets every trusted device by drawing a new security stamp (ADR 0025): a new
 * password, "sign out everywhere" and "this wasn't me" all end here. Run inside the caller's transaction.
 */
export async function endEverySession(tx: Queryable, userId: string, now: Date, keepSessionId = ''): Promise<void> {
  await tx.query('update sessions set revoked_at = $3 where user_id = $1 and id <> $2 and revoked_at is null', [userId, keepSessionId, now]);
  await tx.query(
    `update refresh_tokens set revoked_at = $3
      where user_id = $1 and revoked_at is null and (session_id is null or session_id <> $2)`,
    [userId, keepSessionId, now],
  );
  await tx.query('update users set security_stamp = gen_random_uuid() where id = $1', [userId]);
}
