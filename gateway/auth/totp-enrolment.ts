import type { Database, Queryable } from '../db/database';
import { HttpError } from '../http/errors';
import { ENV_KEY_ID, type KeyRing } from '../security/key-ring';
import type { KeyedSecretBox } from '../security/keyed-secret-box';
import { issueBackupCodes } from './backup-codes';
import { matchTotpStep, newTotpSecret } from './totp';

/**
 * A user's TOTP factor (ADR 0008 mfa/totp/*): the secret is sealed with AES-256-GCM before it is
 * stored; `last_used_step` is raised with a conditional update, so one 30-second code is accepted
 * once even when two requests race. ADR 0026: a secret sealed under an earlier TOTP key is sealed again
 * under the current one when a code of it is accepted; one whose key has retired no longer opens.
 */
/**
 * How long a set-up asked for again gives the same pending secret (ADR 0008 "Set-up asked for again"): a reload or
 * Back/Forward on the scan step must not void the key the person may already have added to the app.
 */
export const PENDING_TOTP_KEPT_MS = 10 * 60 * 1000;

export async function startTotpSetup(db: Database, box: KeyedSecretBox, userId: string, now: Date): Promise<string> {
  const current = await db.query<{ status: string; secret_sealed: string; created_at: Date | string }>(
    'select status, secret_sealed, created_at from totp_secrets where user_id = $1',
    [userId],
  );
  const row = current.rows[0];
  if (row?.status === 'ENROLLED') throw mfaAlreadyEnrolled();
  const kept = row !== undefined && now.getTime() - new Date(row.created_at).getTime() < PENDING_TOTP_KEPT_MS ? box.open(row.secret_sealed) : null;
  if (kept !== null) return kept.plaintext;
  const secret = newTotpSecret();
  await db.query(
    `insert into totp_secrets (user_id, secret_sealed, status, created_at) values ($1, $2, 'PENDING', $3)
     on conflict (user_id) do update set secret_sealed = excluded.secret_sealed, last_used_step = null, created_at = excluded.created_at
     where totp_secrets.status = 'PENDING'`,
    [userId, box.seal(secret), now],
  );
  return secret;
}

/** Whether `code` is a fresh TOTP code of the user's secret in `status`; a match is recorded as used. */
export async function acceptTotpCode(
  db: Database,
  box: KeyedSecretBox,
  options: { userId: string; status: 'PENDING' | 'ENROLLED'; code: string; now: Date },
): Promise<boolean> {
  const found = await db.query<{ secret_sealed: string; last_used_step: string | number | null }>(
    'select secret_sealed, last_used_step from totp_secrets where user_id = $1 and status = $2',
    [options.userId, options.status],
  );
  const row = found.rows[0];
  if (!row) return false;
  const lastUsed = row.last_used_step === null ? null : Number(row.last_used_step);
  const opened = box.open(row.secret_sealed);
  if (opened === null) return false;
  const step = matchTotpStep(opened.plaintext, options.code, options.now, lastUsed);
  if (step === null) return false;
  // The same update seals it again under the current key when an earlier one sealed it (only if no one changed it since).
  const claimed = await db.query(
    `update totp_secrets set last_used_step = $2, secret_sealed = case when secret_sealed = $3 then $4 else secret_sealed end
      where user_id = $1 and (last_used_step is null or last_used_step < $2) returning user_id`,
    [options.userId, step, row.secret_sealed, opened.stale ? box.seal(opened.plaintext) : row.secret_sealed],
  );
  return claimed.rows.length === 1;
}

/** How many secrets one sweep seals again (each instance sweeps at every key refresh, README "Rotating a key"). */
export const TOTP_RESEAL_BATCH = 200;

/**
 * ADR 0026: seals again under the current TOTP key up to `limit` secrets that an earlier, still live key sealed, so a
 * holder who does not sign in during the grace keeps their authenticator. Each row is replaced only if nobody changed
 * it since it was read; answers how many were sealed again.
 */
export async function resealTotpSecrets(db: Queryable, box: KeyedSecretBox, ring: KeyRing, now: Date, limit = TOTP_RESEAL_BATCH): Promise<number> {
  const current = ring.current(now).id;
  const earlier = ring
    .live(now)
    .filter((key) => key.id !== current)
    .flatMap((key) => (key.id === ENV_KEY_ID ? ['v1.%', `v2.${ENV_KEY_ID}.%`] : [`v2.${key.id}.%`]));
  if (earlier.length === 0) return 0;
  const { rows } = await db.query<{ user_id: string; secret_sealed: string }>(
    'select user_id, secret_sealed from totp_secrets where secret_sealed like any($1::text[]) limit $2',
    [earlier, limit],
  );
  let resealed = 0;
  for (const row of rows) {
    const opened = box.open(row.secret_sealed);
    if (opened === null || !opened.stale) continue;
    const updated = await db.query('update totp_secrets set secret_sealed = $3 where user_id = $1 and secret_sealed = $2 returning 1', [
      row.user_id,
      row.secret_sealed,
      box.seal(opened.plaintext),
    ]);
    resealed += updated.rows.length;
  }
  return resealed;
}

/**
 * Enrols the pending secret and hands out the user's backup codes, in one transaction: no enrolment without its
 * codes, and none without `alsoInTransaction` (the holder's notice, ADR 0021 "Telling the holder").
 */
export async function markTotpEnrolled(
  db: Database,
  key: Buffer,
  userId: string,
  now: Date,
  alsoInTransaction: (tx: Queryable) => Promise<void> = async () => undefined,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query("update totp_secrets set status = 'ENROLLED', enrolled_at = $2 where user_id = $1", [userId, now]);
    // A new security stamp: no device trusted before the authenticator stands in for it (ADR 0025).
    await tx.query("update users set mfa_enrollment_status = 'ENROLLED', updated_at = $2, security_stamp = gen_random_uuid() where id = $1", [userId, now]);
    const codes = await issueBackupCodes(tx, key, userId, now);
    await alsoInTransaction(tx);
    return codes;
  });
}

/** Removes the authenticator and its backup codes; `alsoInTransaction` as for `markTotpEnrolled`. */
export async function removeTotp(
  db: Database,
  userId: string,
  now: Date,
  alsoInTransaction: (tx: Queryable) => Promise<void> = async () => undefined,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('delete from totp_secrets where user_id = $1', [userId]);
    // Backup codes stand in for this authenticator only; the next enrolment hands out new ones.
    await tx.query('delete from mfa_backup_codes where user_id = $1', [userId]);
    await tx.query("update users set mfa_enrollment_status = 'NOT_ENROLLED', updated_at = $2, security_stamp = gen_random_uuid() where id = $1", [userId, now]);
    await alsoInTransaction(tx);
  });
}

export function mfaAlreadyEnrolled(): HttpError {
  return new HttpError(409, 'MFA_ALREADY_ENROLLED', 'An authenticator app is already enrolled; unenrol it first.');
}
