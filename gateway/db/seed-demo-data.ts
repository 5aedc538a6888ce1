import type { DemoUser } from '../fixtures/load-fixtures';
import type { CardFingerprinter } from '../security/card-fingerprint';
import { hashPassword } from '../security/password-hashing';
import type { Database } from './database';

/** Same lock for every instance, so two gateways starting on one empty PostgreSQL seed once. */
const SEED_LOCK_KEY = 7_270_002;

/**
 * Inserts the demo users of `fixtures/demo-users.json` when the database has no user yet (first
 * start), and does nothing afterwards: data people created is never touched. Passwords become
 * argon2id hashes; cards become last four digits + product type + keyed fingerprint, never the
 * number (DESIGN "Contracts"). Returns how many users were inserted.
 */
export async function seedDemoData(db: Database, users: readonly DemoUser[], fingerprint: CardFingerprinter): Promise<number> {
  if (users.length === 0 || (await countUsers(db)) > 0) return 0;

  // Hashing is slow on purpose; do it before the transaction so the lock is held briefly.
  const prepared = await Promise.all(
    users.map(async (user) => ({
      user,
      passwordHash: await hashPassword(user.password),
      cards: user.cards.map((card, index) => {
        const digits = card.pan.replace(/\s/g, '');
        // SPEC §4 "If no card is default, the first becomes default."
        const isDefault = card.default || (index === 0 && !user.cards.some((other) => other.default));
        return { lastFour: digits.slice(-4), productType: card.productType, fingerprint: fingerprint(digits), isDefault };
      }),
    })),
  );

  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    const existing = await tx.query<{ count: number }>('select count(*)::int as count from users');
    if ((existing.rows[0]?.count ?? 0) > 0) return 0;

    for (const { user, passwordHash, cards } of prepared) {
      const inserted = await tx.query<{ id: string }>(
        `insert into users (email, password_hash, first_name, last_name, dob, title, locale, status, roles)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         returning id`,
        [user.email.toLowerCase(), passwordHash, user.firstName, user.lastName, user.dob, user.title, user.locale, user.status, user.roles],
      );
      const userId = inserted.rows[0]?.id;
      await tx.query('insert into user_sites (user_id, site_id, attributes) values ($1, $2, $3)', [
        userId,
        user.siteId,
        JSON.stringify(user.attributes),
      ]);
      for (const card of cards) {
        await tx.query(
          `insert into assets (user_id, site_id, last_four, product_type, pan_fingerprint, is_default)
           values ($1, $2, $3, $4, $5, $6)`,
          [userId, user.siteId, card.lastFour, card.productType, card.fingerprint, card.isDefault],
        );
      }
    }
    return prepared.length;
  });
}

async function countUsers(db: Database): Promise<number> {
  const result = await db.query<{ count: number }>('select count(*)::int as count from users');
  return result.rows[0]?.count ?? 0;
}
