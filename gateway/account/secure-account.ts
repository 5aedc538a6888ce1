import { createHash, randomBytes } from 'node:crypto';
import { endEverySession } from '../auth/session-store';
import type { Database, Queryable } from '../db/database';
import { PROVISIONAL_PHONE_MS, restoreProvisionalPhones } from './provisional-phone';

/**
 * "This wasn't me" (docs/decisions/0021-backup-codes-and-account-notices.md "Telling the holder"): each notice
 * of a change carries a link to the secure-account page with a token of its own. Posting the token ends every
 * session, refresh token and trusted device of the account (`endEverySession`) and changes nothing else; the
 * app then leads to the password reset. The token is 32 random bytes, kept only as its SHA-256, works once and
 * for 7 days, and is made by the notice's job, so it is in no job row, answer or log line: only in the message.
 */

/** The app route of the link (an open route, like activate). */
export const SECURE_ACCOUNT_ROUTE = 'secure-account';
/** How long a notice's link works: a week, for a holder who reads their mail late. */
export const SECURE_ACCOUNT_TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;
/** base64url of 32 bytes, as the activation token (ADR 0009). */
export const SECURE_ACCOUNT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/**
 * Live tokens kept per account: a notice a day for a week, and a burst beyond. Older ones go first, so a
 * flood of notices cannot grow the table, and the link of the newest notice always works.
 */
export const MAX_LIVE_TOKENS_PER_ACCOUNT = 20;

function tokenIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new token for the user's notice; returns it for the link only. `revealsEmail`: the link goes to the account's
 * own address, so spending it may name that address (a link texted to a phone never does). Spent and expired
 * tokens of the user are dropped, and the oldest live ones beyond MAX_LIVE_TOKENS_PER_ACCOUNT.
 */
export async function issueSecureAccountToken(db: Database, userId: string, now: Date, revealsEmail: boolean): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    await tx.query('delete from secure_account_tokens where user_id = $1 and (used_at is not null or expires_at <= $2)', [userId, now]);
    await tx.query('insert into secure_account_tokens (id, user_id, reveals_email, created_at, expires_at) values ($1, $2, $3, $4, $5)', [
      tokenIdOf(token),
      userId,
      revealsEmail,
      now,
      new Date(now.getTime() + SECURE_ACCOUNT_TOKEN_TTL_MS),
    ]);
    await tx.query(
      `delete from secure_account_tokens where user_id = $1 and id not in
         (select id from secure_account_tokens where user_id = $1 order by created_at desc, id limit $2)`,
      [userId, MAX_LIVE_TOKENS_PER_ACCOUNT],
    );
  });
  return token;
}

/**
 * What securing an account answers: the account's address when the token was mailed to it, for the recovery form,
 * and what was undone (ADR 0025 "A new phone stays provisional for 7 days").
 */
export interface SecuredAccount {
  email: string | null;
  undone: Array<'phone' | 'authenticator'>;
}

/**
 * What someone holding a session within the owner's 10 minutes of fresh proof could have made theirs, undone if it
 * is less than 7 days old: a passcode phone goes back to the one it replaced, and an authenticator enrolled since
 * goes with its backup codes (the owner enrols their own again). Older changes are the holder's own by then:
 * their notices went to the old phone and the address a week ago.
 */
async function undoProvisionalChanges(tx: Queryable, userId: string, now: Date): Promise<SecuredAccount['undone']> {
  const undone: SecuredAccount['undone'] = [];
  if (await restoreProvisionalPhones(tx, userId, now)) undone.push('phone');
  const since = new Date(now.getTime() - PROVISIONAL_PHONE_MS);
  const removed = await tx.query("delete from totp_secrets where user_id = $1 and status = 'ENROLLED' and enrolled_at > $2 returning 1", [userId, since]);
  if (removed.rows.length > 0) {
    await tx.query('delete from mfa_backup_codes where user_id = $1', [userId]);
    await tx.query("update users set mfa_enrollment_status = 'NOT_ENROLLED', updated_at = $2 where id = $1", [userId, now]);
    undone.push('authenticator');
  }
  return undone;
}

/**
 * Spends the token and ends every session, refresh token and trusted device of its account, in one transaction;
 * null for a token that is unknown, spent or expired (the caller answers the three alike). The spend is one
 * conditional update, so two racing posts of one link secure the account once.
 */
export async function secureAccountWithToken(db: Database, token: string, now: Date): Promise<SecuredAccount | null> {
  if (!SECURE_ACCOUNT_TOKEN_PATTERN.test(token)) return null;
  return db.transaction(async (tx: Queryable) => {
    const spent = await tx.query<{ user_id: string; reveals_email: boolean }>(
      `update secure_account_tokens set used_at = $2
        where id = $1 and used_at is null and expires_at > $2
        returning user_id, reveals_email`,
      [tokenIdOf(token), now],
    );
    const row = spent.rows[0];
    if (row === undefined) return null;
    await endEverySession(tx, row.user_id, now);
    const undone = await undoProvisionalChanges(tx, row.user_id, now);
    if (!row.reveals_email) return { email: null, undone };
    const user = await tx.query<{ email: string }>('select email from users where id = $1', [row.user_id]);
    return { email: user.rows[0]?.email ?? null, undone };
  });
}
