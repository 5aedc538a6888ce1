import type { Queryable } from '../db/database';

/**
 * docs/decisions/0025-fresh-proof.md "A new phone stays provisional for 7 days": what the phone proof
 * (phone-proof.ts), the password reset (recovery.ts) and "this wasn't me" (secure-account.ts) share about a passcode
 * phone changed lately.
 */

/**
 * How long a newly proved phone stays provisional (ADR 0025 "A new phone stays provisional for 7 days"; Google's
 * wait after a recovery phone changes): whoever held a session within the owner's 10 minutes of fresh proof can
 * prove a phone of their own, but no password reset goes to it meanwhile, and the notices reach the owner's old
 * phone and address, whose "this wasn't me" link puts the old phone back.
 */
export const PROVISIONAL_PHONE_MS = 7 * 24 * 60 * 60_000;

/**
 * A change of the passcode phone to `$3` at `$4` (`passcodePhoneChange`, ADR 0025): the phone it
 * replaces is kept for "this wasn't me", unless that one is itself provisional, so a second change inside the window
 * never makes the first one the phone to go back to.
 */
export const PASSCODE_PHONE_CHANGE = `previous_passcode_phone = case when passcode_phone_changed_at > $5 then previous_passcode_phone else passcode_phone end,
  passcode_phone = $3, passcode_phone_changed_at = $4`;

/** The parameters `$3`–`$5` of PASSCODE_PHONE_CHANGE. */
export function passcodePhoneChange(phone: string | null, now: Date): [string | null, Date, Date] {
  return [phone, now, new Date(now.getTime() - PROVISIONAL_PHONE_MS)];
}

/**
 * The `phone` attribute set to the phone in `column` (removed when it is null), as a save of it would be written:
 * a new version, which that key remembers (ADR 0010), so an edit begun before it is refused as a conflict.
 */
const PHONE_ATTRIBUTE_FROM = (column: string) => `attributes = case when ${column} is null then attributes - 'phone'
         else jsonb_set(attributes, '{phone}', to_jsonb(${column})) end,
       attribute_versions = attribute_versions || jsonb_build_object('phone', version + 1),
       version = version + 1`;

/**
 * "This wasn't me" (gateway/account/secure-account.ts), inside its transaction: every passcode phone of the account
 * changed in the last 7 days goes back to the one it replaced, on the profile too, and a new number waiting for its
 * code leaves the profile. True when a phone was put back.
 */
export async function restoreProvisionalPhones(tx: Queryable, userId: string, now: Date): Promise<boolean> {
  // A number still waiting for its code leaves the profile too: the profile shows the passcode phone again.
  const unwaited = await tx.query(
    `update user_sites s set ${PHONE_ATTRIBUTE_FROM('s.passcode_phone')}, updated_at = $2
       from phone_proofs p where p.user_id = s.user_id and p.site_id = s.site_id and s.user_id = $1 returning 1`,
    [userId, now],
  );
  await tx.query('delete from phone_proofs where user_id = $1', [userId]);
  const restored = await tx.query(
    `update user_sites set passcode_phone = previous_passcode_phone, previous_passcode_phone = null, passcode_phone_changed_at = null,
       ${PHONE_ATTRIBUTE_FROM('previous_passcode_phone')}, updated_at = $3
     where user_id = $1 and passcode_phone_changed_at > $2 returning 1`,
    [userId, new Date(now.getTime() - PROVISIONAL_PHONE_MS), now],
  );
  return unwaited.rows.length + restored.rows.length > 0;
}

/** True when `phone` became a passcode phone of the account by a code less than `PROVISIONAL_PHONE_MS` ago. */
export async function isRecentlyProvedPhone(db: Queryable, userId: string, phone: string, now: Date): Promise<boolean> {
  const found = await db.query('select 1 from user_sites where user_id = $1 and passcode_phone = $2 and passcode_phone_changed_at > $3 limit 1', [
    userId,
    phone,
    new Date(now.getTime() - PROVISIONAL_PHONE_MS),
  ]);
  return found.rows.length > 0;
}
