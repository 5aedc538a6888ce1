import { createHash } from 'node:crypto';
import type { Queryable } from '../db/database';

/**
 * The devices that signed in to an account (docs/decisions/0021-backup-codes-and-account-notices.md "Telling
 * the holder"), so a sign-in from another one is told to the holder. A device is the browser's `gmap_device`
 * cookie (`deviceIdOf`, ADR 0008). Kept as SHA-256 of the account and the device id: no cookie value is stored,
 * one browser's accounts cannot be linked to each other, and, unlike a keyed hash, a new signing key does not
 * make every device of every account new at once.
 */

/** The devices kept per account, those seen last; a device gone from the list is new again. */
export const KNOWN_DEVICES_PER_ACCOUNT = 20;

/** What a sign-in was, for its device: the account's first remembered device, one it knows, or a new one. */
export type DeviceSighting = 'first' | 'known' | 'new';

function deviceHashOf(userId: string, deviceId: string): string {
  return createHash('sha256').update(`${userId}:${deviceId}`).digest('hex');
}

/**
 * Remembers that `deviceId` signed in to the account now. 'first' when the account had no device yet (its first
 * sign-in, or its first since devices were remembered): there is nothing to compare with, so the caller tells no
 * one. The oldest devices beyond KNOWN_DEVICES_PER_ACCOUNT are forgotten.
 */
export async function rememberSignInDevice(db: Queryable, userId: string, deviceId: string, now: Date): Promise<DeviceSighting> {
  const deviceHash = deviceHashOf(userId, deviceId);
  const seen = await db.query('update known_devices set last_seen_at = $3 where user_id = $1 and device_hash = $2 returning 1', [userId, deviceHash, now]);
  if (seen.rows.length > 0) return 'known';
  const others = await db.query('select 1 from known_devices where user_id = $1 limit 1', [userId]);
  // Two first sign-ins of one browser at once: the second finds the row the first wrote, and is no new device.
  const inserted = await db.query(
    `insert into known_devices (user_id, device_hash, first_seen_at, last_seen_at) values ($1, $2, $3, $3)
     on conflict (user_id, device_hash) do nothing returning 1`,
    [userId, deviceHash, now],
  );
  if (inserted.rows.length === 0) return 'known';
  await db.query(
    `delete from known_devices where user_id = $1 and device_hash not in
       (select device_hash from known_devices where user_id = $1 order by last_seen_at desc, device_hash limit $2)`,
    [userId, KNOWN_DEVICES_PER_ACCOUNT],
  );
  return others.rows.length === 0 ? 'first' : 'new';
}
