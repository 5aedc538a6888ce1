import type { Database, Queryable } from '../db/database';
import { HttpError } from '../http/errors';
import type { BrowserName, OperatingSystemName } from '../../schemas/entities/signed-in-device';
import { maskAddress } from './session-device';
import type { SessionUser } from './session-store';

/**
 * The holder's own sessions and trusted devices, across every site of the account (docs/decisions/0025-fresh-proof.md
 * "Sessions the holder can see"). Rows are named by their `public_id` / trusted device id: neither is the SESSION
 * token, its hash or anything a cookie is made of.
 */
export interface HolderSession {
  id: string;
  siteId: string;
  browser: BrowserName | null;
  os: OperatingSystemName | null;
  /** The network part only (`maskAddress`); null when the sign-in recorded none. */
  firstAddress: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  /** The session of the request asking. */
  current: boolean;
}

export interface HolderTrustedDevice {
  id: string;
  siteId: string;
  browser: BrowserName | null;
  os: OperatingSystemName | null;
  createdAt: Date;
  expiresAt: Date;
  /** This browser holds the cookie of this trust. */
  current: boolean;
}

interface DeviceColumns {
  site_id: string;
  browser: BrowserName | null;
  os: OperatingSystemName | null;
  created_at: Date | string;
}

/** The live sessions of `user`'s account on every site, the asking one first, then the most recently used. */
export async function listHolderSessions(db: Queryable, user: SessionUser, now: Date): Promise<HolderSession[]> {
  const found = await db.query<DeviceColumns & { public_id: string; first_address: string | null; last_used_at: Date | string; current: boolean }>(
    `select public_id, site_id, browser, os, first_address, created_at, last_used_at, id = $2 as current
       from sessions
      where user_id = $1 and revoked_at is null and expires_at > $3
      order by id = $2 desc, last_used_at desc, created_at desc`,
    [user.userId, user.sessionId, now],
  );
  return found.rows.map((row) => ({
    id: row.public_id,
    siteId: row.site_id,
    browser: row.browser,
    os: row.os,
    firstAddress: maskAddress(row.first_address),
    createdAt: new Date(row.created_at),
    lastUsedAt: new Date(row.last_used_at),
    current: row.current,
  }));
}

/**
 * The devices still trusted to skip the sign-in passcode: live, not ended, and trusted under the account's current
 * security stamp, exactly the ones whose cookie the sign-in would still take (ADR 0025 "Trusted devices").
 * `currentTrustId`: the row this browser's own cookie names.
 */
export async function listTrustedDevices(db: Queryable, userId: string, now: Date, currentTrustId: string | null): Promise<HolderTrustedDevice[]> {
  const found = await db.query<DeviceColumns & { id: string; expires_at: Date | string }>(
    `select t.id, t.site_id, t.browser, t.os, t.created_at, t.expires_at
       from trusted_devices t join users u on u.id = t.user_id
      where t.user_id = $1 and t.ended_at is null and t.expires_at > $2 and t.security_stamp = u.security_stamp
      order by t.created_at desc`,
    [userId, now],
  );
  return found.rows.map((row) => ({
    id: row.id,
    siteId: row.site_id,
    browser: row.browser,
    os: row.os,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    current: row.id === currentTrustId,
  }));
}

/** One answer for a session that is not the holder's, does not exist, or has ended: nothing tells them apart. */
function sessionNotFound(): HttpError {
  return new HttpError(404, 'SESSION_NOT_FOUND', 'None of your signed-in devices has this id.');
}

/**
 * Ends one live session of `user`'s account, on any of its sites, and the refresh tokens issued with it, so none
 * can open it again. 404 SESSION_NOT_FOUND for another account's session, an unknown or an ended one alike;
 * 409 CURRENT_SESSION for the asking session itself (signing out is `tokens/revoke`, which also clears the cookies).
 */
export async function endHolderSession(db: Database, user: SessionUser, publicId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const found = await tx.query<{ id: string }>(
      'select id from sessions where public_id = $1 and user_id = $2 and revoked_at is null and expires_at > $3 for update',
      [publicId, user.userId, now],
    );
    const session = found.rows[0];
    if (!session) throw sessionNotFound();
    if (session.id === user.sessionId) throw new HttpError(409, 'CURRENT_SESSION', 'This is the device you are using; sign out here instead.');
    await tx.query('update sessions set revoked_at = $2 where id = $1', [session.id, now]);
    await tx.query(
      `update refresh_tokens set revoked_at = $2
        where revoked_at is null and family_id in (select family_id from refresh_tokens where session_id = $1)`,
      [session.id, now],
    );
  });
}
