import type { Database, Queryable } from '../db/database';
import { recordPasswordHash } from './password-history';

/**
 * ADR 0009 "Activation: an unproved registration is no one's". A registration that was never activated was
 * made by someone who typed the address; nothing says they hold its mailbox, and everything in it (the
 * password, the profiles, the cards, the phone, and whatever a signed-in but inactive session added since:
 * an authenticator, backup codes, aliases, sessions, trusted devices) is theirs. When someone else proves
 * the mailbox without knowing that password (a password reset, an SSO sign-in) or registers the address again,
 * the unproved account is deleted whole and the address starts afresh. Every table of an account hangs off
 * `users` with ON DELETE CASCADE (as `remove-account` relies on, ADR 0009 "Deletion"), so a table added later
 * goes with it too, and the fresh account has a new id that no old session, refresh token, pending sign-in
 * or trusted-device cookie names.
 *
 * Only an account a registration makes counts as unproved: INACTIVE with the card holder role alone. An
 * agent's account is made by the operator, never by whoever types an address.
 */
export interface UnprovedAccount {
  id: string;
  email: string;
  /** The language the registration was made in: the only thing a fresh account keeps, for its mails. */
  locale: string | null;
}

const UNPROVED = `status = 'INACTIVE' and roles = '{ROLE_CARDHOLDER}'`;

/**
 * The address's (or the user's) unproved account, locked for this transaction, or null. The lock orders it
 * with an activation of the same account: whichever commits first wins, and the other finds nothing to do
 * (an activated account is no longer unproved; a deleted one has no link left).
 */
export async function lockUnprovedAccount(tx: Queryable, key: { email: string } | { userId: string }): Promise<UnprovedAccount | null> {
  const [column, value] = 'email' in key ? ['email', key.email.trim().toLowerCase()] : ['id', key.userId];
  const found = await tx.query<UnprovedAccount>(`select id, email, locale from users where ${column} = $1 and ${UNPROVED} for update`, [value]);
  return found.rows[0] ?? null;
}

/** Deletes a locked unproved account and all that hangs off it. */
export async function dropUnprovedAccount(tx: Queryable, account: UnprovedAccount): Promise<void> {
  await tx.query(`delete from users where id = $1 and ${UNPROVED}`, [account.id]);
}

/**
 * ADR 0009 "Recovery" on an account that was never activated: the reset proved the mailbox, so the address
 * becomes the mailbox owner's, ACTIVE with the password they just chose and nothing the registrant gave.
 * Answers the fresh account's id, or null when the user is not (or no longer) unproved: then the reset is an
 * ordinary one.
 */
export async function restartUnprovedAccount(db: Database, options: { userId: string; passwordHash: string; now: Date }): Promise<string | null> {
  const { passwordHash, now } = options;
  return db.transaction(async (tx) => {
    const unproved = await lockUnprovedAccount(tx, { userId: options.userId });
    if (unproved === null) return null;
    await dropUnprovedAccount(tx, unproved);
    const inserted = await tx.query<{ id: string }>(
      `insert into users (email, password_hash, locale, status, roles, created_at, updated_at)
       values ($1, $2, $3, 'ACTIVE', '{ROLE_CARDHOLDER}', $4, $4)
       returning id`,
      [unproved.email, passwordHash, unproved.locale, now],
    );
    const userId = inserted.rows[0]!.id;
    await recordPasswordHash(tx, userId, passwordHash, now);
    return userId;
  });
}

/** Whether the user's account is one a registration made and nobody activated yet. */
export async function isUnprovedAccount(db: Queryable, userId: string): Promise<boolean> {
  const found = await db.query(`select 1 from users where id = $1 and ${UNPROVED}`, [userId]);
  return found.rows.length > 0;
}
