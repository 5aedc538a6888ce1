import { createHmac, randomBytes } from 'node:crypto';
import { BACKUP_CODE_INPUT_PATTERN } from '../../schemas/api/request-schemas';
import type { Database, Queryable } from '../db/database';
import { HttpError } from '../http/errors';
import type { AuthServices } from './auth-services';

/**
 * Backup codes (docs/decisions/0021-backup-codes-and-account-notices.md, as GitHub, Google
 * and Okta hand them out): ten single-use codes of 10 base32 characters (50 bits each), shown once,
 * stored only as keyed hashes. A code stands in for the authenticator when the phone is lost.
 */
export const BACKUP_CODE_COUNT = 10;
const CODE_LENGTH = 10;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** What a typed code may look like: base32 in any case, with the group hyphen or spaces. */
export const BACKUP_CODE_INPUT = new RegExp(BACKUP_CODE_INPUT_PATTERN);

/** `ABCDE-FGH23`: how a code is shown, in two groups that are easy to copy by hand. */
function newBackupCode(): string {
  // 256 is a multiple of 32, so `byte % 32` draws every character with the same chance.
  const characters = [...randomBytes(CODE_LENGTH)].map((byte) => BASE32[byte % 32]).join('');
  return `${characters.slice(0, 5)}-${characters.slice(5)}`;
}

/** The code as typed, reduced to its 10 characters: case, spaces and the hyphen do not matter. */
function normalised(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

function codeHash(key: Buffer, userId: string, code: string): string {
  // The hash input keeps its first name (ADR 0021 "The word"): codes handed out before migration 028 still match.
  return createHmac('sha256', key)
    .update(`mfa-recovery:${userId}:${normalised(code)}`)
    .digest('hex');
}

/** Replaces every backup code of the user with ten new ones and returns them, the only time they exist in clear. */
export async function issueBackupCodes(db: Queryable, key: Buffer, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
  await db.query('delete from mfa_backup_codes where user_id = $1', [userId]);
  for (const code of codes) {
    await db.query('insert into mfa_backup_codes (user_id, code_hash, created_at) values ($1, $2, $3)', [userId, codeHash(key, userId, code), now]);
  }
  return codes;
}

/** Spends `code` if it is an unused backup code of the user; one conditional update, so a code is used once. */
export async function spendBackupCode(db: Queryable, key: Buffer, userId: string, code: string, now: Date): Promise<boolean> {
  if (!BACKUP_CODE_INPUT.test(code) || normalised(code).length !== CODE_LENGTH) return false;
  const spent = await db.query('update mfa_backup_codes set used_at = $3 where user_id = $1 and code_hash = $2 and used_at is null returning id', [
    userId,
    codeHash(key, userId, code),
    now,
  ]);
  return spent.rows.length === 1;
}

export async function backupCodesLeft(db: Queryable, userId: string): Promise<number> {
  const left = await db.query<{ n: number }>('select count(*)::int as n from mfa_backup_codes where user_id = $1 and used_at is null', [userId]);
  return left.rows[0]?.n ?? 0;
}

export type BackupCodeCheck = { ok: true; codesLeft: number } | { ok: false; attemptsLeft: number };

/**
 * A backup code in place of an authenticator code (sign-in, unenrol, new codes): counted by the same
 * per-account limit as authenticator codes (5 wrong in 10 minutes, ADR 0008), so a lost phone gives an
 * attacker no more guesses than the phone did. A right code is spent and ends the streak of failures.
 */
export async function checkBackupCode(db: Database, services: AuthServices, userId: string, code: string): Promise<BackupCodeCheck> {
  const { limits, clock, keys } = services;
  if ((await limits.totpAttemptsLeft(userId)) === 0) return { ok: false, attemptsLeft: 0 };
  if (await spendBackupCode(db, keys.tokenRoot, userId, code, clock.now())) {
    await limits.clearTotpFailures(userId);
    return { ok: true, codesLeft: await backupCodesLeft(db, userId) };
  }
  return { ok: false, attemptsLeft: await limits.recordTotpFailure(userId) };
}

/** The answer to a wrong, used or unknown backup code: 401 at sign-in, 400 for a signed-in call (401 would sign the app out, SPEC §8). */
export function backupCodeInvalid(status: 400 | 401, attemptsLeft: number): HttpError {
  return new HttpError(status, 'OTP_INVALID', 'The backup code is not right, or it was used already.', status === 400 ? { backupCode: 'invalid' } : undefined, {
    extras: { attemptsLeft },
  });
}
