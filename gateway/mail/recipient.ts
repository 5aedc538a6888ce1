import type { Queryable } from '../db/database';
import { firstLocaleOf } from '../locale';

/**
 * Who a mail about an account goes to, and in which language: the `locale` attribute of the site the mail is
 * about, else the account's locale (set at registration, copied by `user-mgmt/user/update`), else en_us.
 */
export interface Recipient {
  userId: string;
  email: string;
  locale: string;
}

async function findRecipient(db: Queryable, where: 'u.id = $1' | 'u.email = $1', key: string, siteId: string): Promise<Recipient | null> {
  const found = await db.query<{ id: string; email: string; locale: string | null; site_locale: string | null }>(
    `select u.id, u.email, u.locale, s.attributes->>'locale' as site_locale
       from users u left join user_sites s on s.user_id = u.id and s.site_id = $2
      where ${where}`,
    [key, siteId],
  );
  const row = found.rows[0];
  return row ? { userId: row.id, email: row.email, locale: firstLocaleOf(row.site_locale, row.locale) } : null;
}

export function recipientById(db: Queryable, userId: string, siteId: string): Promise<Recipient | null> {
  return findRecipient(db, 'u.id = $1', userId, siteId);
}

export function recipientByEmail(db: Queryable, email: string, siteId: string): Promise<Recipient | null> {
  return findRecipient(db, 'u.email = $1', email.trim().toLowerCase(), siteId);
}
