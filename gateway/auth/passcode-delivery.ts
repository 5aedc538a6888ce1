import type { Database, Queryable } from '../db/database';
import { HttpError } from '../http/errors';
import { passcodeMessage } from '../account/account-mail';
import { DEFAULT_LOCALE } from '../locale';
import type { MessageChannel } from '../mail/mailer';
import { recipientById } from '../mail/recipient';
import type { AuthServices } from './auth-services';
import { maskEmail, maskPhone } from './masking';
import { CODE_TTL_MS, issueCode, type CodePurpose } from './one-time-codes';

/** Where a user's passcodes can go: the account e-mail, and the proved phone when there is one. */
export interface Destinations {
  email: string;
  phone: string | null;
}

/**
 * The number a text goes to: the phone's digits, with its leading `+` if it has one. SPEC §5 stores
 * a masked phone as its digits but a phone checked by a regexp alone as typed ("91 234 5678", ADR 0001
 * `phone_regexp` without `phone_mask`), and a text must not depend on how the number was typed. Null
 * when nothing in it can be dialled.
 */
export function smsNumber(phone: string): string | null {
  const digits = phone.replace(/[^0-9]/g, '');
  if (digits === '') return null;
  return phone.trim().startsWith('+') ? `+${digits}` : digits;
}

/** The number texts go to from a site's attributes (SPEC §3 attribute `phone`), as `smsNumber` dials it. */
export function passcodePhoneOf(attributes: Readonly<Record<string, unknown>>): string | null {
  const phone = attributes.phone;
  return typeof phone === 'string' ? smsNumber(phone) : null;
}

/**
 * The phone passcodes go to: the proved `passcode_phone` of the site asked about first, else of any site of
 * the user. Never the `phone` attribute itself: a new number counts only once the code texted to it came back
 * (docs/decisions/0025-fresh-proof.md "A new phone is proved before it counts").
 */
export async function passcodePhoneFor(db: Queryable, userId: string, siteId: string): Promise<string | null> {
  const found = await db.query<{ passcode_phone: string }>(
    `select passcode_phone from user_sites where user_id = $1 and passcode_phone is not null
      order by (site_id = $2) desc, site_id limit 1`,
    [userId, siteId],
  );
  return found.rows[0]?.passcode_phone ?? null;
}

/** Where a user's passcodes for `siteId` go: the account e-mail and `passcodePhoneFor`. */
export async function destinationsOf(db: Queryable, userId: string, siteId: string): Promise<Destinations | null> {
  const found = await db.query<{ email: string }>('select email from users where id = $1', [userId]);
  const row = found.rows[0];
  return row ? { email: row.email, phone: await passcodePhoneFor(db, userId, siteId) } : null;
}

/** How long a caller waits before asking again when the mail or SMS server did not take a passcode. */
const DELIVERY_RETRY_SECONDS = 60;

/**
 * Issues a code and sends it (ADR 0008): at most 5 sends per account in 15 minutes (429), the
 * previous code replaced. Returns the masked destination for the answer; the code itself goes
 * only into the message.
 */
export async function sendPasscode(
  db: Database,
  services: AuthServices,
  /** `siteId`: the site the code is for (ADR 0025), whose locale attribute the message is written in. */
  options: { userId: string; siteId: string; purpose: CodePurpose; channel: MessageChannel; destinations: Destinations },
): Promise<string> {
  const { userId, siteId, purpose, channel, destinations } = options;
  const to = channel === 'sms' ? destinations.phone : destinations.email;
  if (to === null) throw new Error('No phone number to send a code to');
  await services.limits.countCodeSend(userId);
  const code = await issueCode(db, { userId, siteId, purpose, channel, keys: services.keys.token, now: services.clock.now() });
  const minutes = CODE_TTL_MS / 60_000;
  const recipient = await recipientById(db, userId, siteId);
  try {
    await services.mailer.send(passcodeMessage(services.mailTexts(recipient?.locale ?? DEFAULT_LOCALE), channel, to, code, minutes));
  } catch {
    // The mail or SMS server is down (ADR 0008): the person is told to try again, never a 500. The error
    // itself may quote the address or the message, so it is not passed on.
    throw new HttpError(503, 'DELIVERY_UNAVAILABLE', 'We could not send your passcode just now; try again in a minute.', undefined, {
      retryAfterSeconds: DELIVERY_RETRY_SECONDS,
    });
  }
  return channel === 'sms' ? maskPhone(to) : maskEmail(to);
}
