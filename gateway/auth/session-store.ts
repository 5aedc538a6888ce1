import { createHash, randomBytes } from 'node:crypto';
import type { UserProfile } from '../../schemas/entities/user-profile';
import type { Queryable } from '../db/database';
import { PROFILE_COLUMNS, profileOf, type ProfileRow } from '../profile/user-profile';
import type { SessionDevice } from './session-device';

/** SPEC §4: ROLE_CONCIERGE is a support agent. */
export const CONCIERGE_ROLE = 'ROLE_CONCIERGE';

/** How long a sign-in lasts; also the access token's `expires_in` (SPEC §3, §4 refresh). */
export const SESSION_TTL_SECONDS = 30 * 60;

/**
 * How stale a session's `last_used_at` may get (ADR 0025 "Sessions the holder can see"): a minute is as exact as
 * "last active" needs to be, and it bounds the writes to one a minute per session however many calls it makes.
 */
export const LAST_USED_STEP_MS = 60_000;

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
 * Opens a session of `userId` on `siteId`, recording the device and address it was opened from (ADR 0025
 * "Sessions the holder can see"; a session opened with none, a test hook's, lists as an unknown device), for a
 * sign-in made at `signedInAt` (now, or the refreshed chain's start): it lasts 30 minutes, and never past the
 * sign-in's 8 hours (ADR 0025 "A sign-in's age").
 */
export async function openSession(
  db: Queryable,
  userId: string,
  siteId: string,
  now: Date,
  opened: { device?: SessionDevice; signedInAt?: Date } = {},
): Promise<OpenedSession> {
  const { device, signedInAt = now } = opened;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Math.min(now.getTime() + SESSION_TTL_SECONDS * 1000, signedInAt.getTime() + SIGN_IN_MAX_AGE_MS));
  await db.query(
    `insert into sessions (id, user_id, site_id, created_at, expires_at, last_used_at, browser, os, first_address, signed_in_at)
     values ($1, $2, $3, $4, $5, $4, $6, $7, $8, $9)`,
    [sessionIdOf(token), userId, siteId, now, expiresAt, device?.browser ?? null, device?.os ?? null, device?.address ?? null, signedInAt],
  );
  return { token, expiresAt };
}

/**
 * The user behind a live session token, or null when it is unknown, expired or revoked: one query
 * (one round trip, ADR 0003) for the session, its user with their profile and an agent's grant of the
 * session's site (ADR 0017), so a read of one's own profile needs no second look-up. The card holder
 * an agent acts for is read by the calls that need them: joining `users` a second time here made this
 * query, so every signed-in call, about 0.3 ms slower on PGlite and PostgreSQL alike.
 * The same statement moves the session's `last_used_at` when it is a minute or more behind (ADR 0025 "Sessions the
 * holder can see"): a write at most once a minute per session, and no round trip of its own. The update matches
 * no row on the other calls of that minute, so they write nothing.
 */
export async function findSessionUser(db: Queryable, token: string, now: Date): Promise<SessionUser | null> {
  return (await findSession(db, token, now)).user;
}

/**
 * The session's user, or why there is none: in the one query a signed-in read costs (tests/gateway/db/read-round-trips),
 * so a refused session costs no second one. `endReason` is kept only for a session ended for its holder elsewhere.
 */
export async function findSession(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ user: SessionUser; endReason: null } | { user: null; endReason: SessionEndReason | null }> {
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
      live: boolean;
      revoked_reason: string | null;
    }
  >(
    `with touched as (
       update sessions set last_used_at = $2 where id = $1 and revoked_at is null and expires_at > $2 and last_used_at <= $3
     )
     select s.id as session_id, s.user_id, s.site_id, s.expires_at, coalesce(s.signed_in_at, s.created_at) as signed_in_at, s.acting_for_user_id,
            u.roles, u.password_change_required,
            ${PROFILE_COLUMNS.map((column) => `u.${column}`).join(', ')},
            exists (select 1 from agent_site_grants g where g.user_id = s.user_id and g.site_id = s.site_id) as site_granted,
            (s.revoked_at is null and s.expires_at > $2) as live,
            case when s.revoked_at is not null then s.revoked_reason end as revoked_reason
       from sessions s join users u on u.id = s.user_id
      where s.id = $1`,
    [sessionIdOf(token), now, new Date(now.getTime() - LAST_USED_STEP_MS)],
  );
  const row = result.rows[0];
  if (!row) return { user: null, endReason: null };
  if (!row.live) return { user: null, endReason: row.revoked_reason === 'password_changed' ? 'password_changed' : null };
  const isAgent = row.roles.includes(CONCIERGE_ROLE);
  const user: SessionUser = {
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
  return { user, endReason: null };
}

/**
 * Why a session was ended for its holder elsewhere (migration 027): `password_changed` when a new password signed every
 * other session out. Told to the holder at the sign-in page, never anything about who or where.
 */
export type SessionEndReason = 'password_changed';

export async function revokeSession(db: Queryable, token: string, now: Date): Promise<void> {
  await db.query('update sessions set revoked_at = $2 where id = $1 and revoked_at is null', [sessionIdOf(token), now]);
}

/** What "sign out everywhere" ended that was still live: other sessions, and trusted devices. */
export interface EndedEverywhere {
  sessionsEnded: number;
  trustedDevicesEnded: number;
}

/**
 * Ends every session of the user but `keepSessionId` (the caller's own, after a password change or "sign out
 * everywhere else") and the refresh tokens issued with them, and forgets every trusted device by drawing a new
 * security stamp (ADR 0025): a new password, "sign out everywhere" and "this wasn't me" all end here. The trusted
 * devices' rows are marked ended too, so the holder's list says so at once (the stamp alone already stops each
 * cookie). Run inside the caller's transaction. Answers how many of each were still live.
 */
export async function endEverySession(
  tx: Queryable,
  userId: string,
  now: Date,
  keepSessionId = '',
  reason: SessionEndReason | null = null,
): Promise<EndedEverywhere> {
  const sessions = await tx.query<{ live: boolean }>(
    'update sessions set revoked_at = $3, revoked_reason = $4 where user_id = $1 and id <> $2 and revoked_at is null returning expires_at > $3 as live',
    [userId, keepSessionId, now, reason],
  );
  await tx.query(
    `update refresh_tokens set revoked_at = $3
      where user_id = $1 and revoked_at is null and (session_id is null or session_id <> $2)`,
    [userId, keepSessionId, now],
  );
  // Only the devices still trusted count: one whose stamp is already old ended with that stamp.
  const devices = await tx.query<{ live: boolean }>(
    `update trusted_devices t set ended_at = $2 from users u
      where t.user_id = $1 and u.id = t.user_id and t.ended_at is null
      returning t.expires_at > $2 and t.security_stamp = u.security_stamp as live`,
    [userId, now],
  );
  await tx.query('update users set security_stamp = gen_random_uuid() where id = $1', [userId]);
  return { sessionsEnded: sessions.rows.filter((row) => row.live).length, trustedDevicesEnded: devices.rows.filter((row) => row.live).length };
}
