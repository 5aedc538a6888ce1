import type { AuthServices } from '../auth/auth-services';
import { endEverySession } from '../auth/session-store';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';
import { hashPassword } from '../security/password-hashing';
import { validateField } from '../../schemas/validators';
import { isRecentPassword, recordPasswordHash } from './password-history';

/** The password form fields of ADR 0009 change, reset and compromised-password calls. */
export interface NewPasswordFields {
  password: string;
  confirm_password: string;
}

/** SPEC §5 password rules and "confirm must equal password", with the same keys the form shows. */
export function assertPasswordRules(fields: NewPasswordFields): void {
  const errors: Record<string, string> = {};
  const password = validateField(fields.password, { rule: 'password', required: true });
  if (password) errors.password = password.key;
  const confirm = validateField(
    fields.confirm_password,
    { rule: 'confirmPassword', required: true, options: { matchField: 'password' } },
    { matchValue: fields.password },
  );
  if (confirm) errors.confirm_password = confirm.key;
  const names = Object.keys(errors);
  if (names.length > 0) throw new HttpError(400, 'VALIDATION_FAILED', `These fields are not valid: ${names.join(', ')}.`, errors);
}

/** ADR 0012: a new password from the breached list is refused (PASSWORD_COMPROMISED), on every site. */
export async function assertNotCompromised(services: AuthServices, password: string): Promise<void> {
  if (await services.compromisedPasswords.isCompromised(password)) {
    throw new HttpError(400, 'PASSWORD_COMPROMISED', 'This password has appeared in a data breach; choose another one.');
  }
}

/** ADR 0009: refuses a listed password (PASSWORD_COMPROMISED), then one of the last 4 (PASSWORD_REUSED). */
export async function assertAcceptableNewPassword(db: Database, services: AuthServices, userId: string, password: string): Promise<void> {
  await assertNotCompromised(services, password);
  if (await isRecentPassword(db, userId, password)) {
    throw new HttpError(400, 'PASSWORD_REUSED', 'Choose a password you have not used for your last 4 passwords.');
  }
}

/**
 * Stores the new password (argon2id) and its history entry, and signs the user out everywhere
 * except `keepSessionId` (the session that changed it, when there is one): sessions and their
 * refresh tokens are revoked in the same transaction.
 */
export async function replacePassword(db: Database, options: { userId: string; password: string; now: Date; keepSessionId?: string }): Promise<void> {
  const { userId, now } = options;
  const passwordHash = await hashPassword(options.password);
  const keep = options.keepSessionId ?? '';
  await db.transaction(async (tx) => {
    // An account made before the history existed (seeded) gets its current password recorded first.
    await tx.query(
      `insert into password_history (user_id, password_hash, created_at)
       select id, password_hash, $2 from users where id = $1 and not exists (select 1 from password_history where user_id = $1)`,
      [userId, new Date(now.getTime() - 1)],
    );
    // A replaced password ends the compromised-credentials hold (ADR 0009), whichever way it was replaced.
    await tx.query('update users set password_hash = $2, updated_at = $3, password_change_required = false where id = $1', [userId, passwordHash, now]);
    await recordPasswordHash(tx, userId, passwordHash, now);
    // Every other session and every trusted device (ADR 0025); a holder signed in elsewhere is told why at the sign-in page.
    await endEverySession(tx, userId, now, keep, 'password_changed');
  });
}

/**
 * ADR 0009 "Compromised credentials": set at every completed password sign-in, true when the password
 * is on the breached list, so the account reaches nothing but the password replacement until then.
 */
export async function recordPasswordChangeRequired(db: Database, userId: string, required: boolean): Promise<void> {
  await db.query('update users set password_change_required = $2 where id = $1 and password_change_required <> $2', [userId, required]);
}
