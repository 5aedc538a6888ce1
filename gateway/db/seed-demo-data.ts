import type { BinRange } from '../../schemas/cards/bin-ranges';
import { describeCard, insertNewAccountCards } from '../cards/card-enrolment';
import type { CashbackStatementFixture, DemoUser } from '../site-files/load-fixtures';
import type { CardFingerprinter } from '../security/card-fingerprint';
import { CONCIERGE_ROLE } from '../auth/session-store';
import { passcodePhoneOf } from '../auth/passcode-delivery';
import { hashPassword } from '../security/password-hashing';
import type { Database } from './database';

/** Same lock for every instance, so two gateways starting on one empty PostgreSQL seed once. */
const SEED_LOCK_KEY = 7_270_002;
/** Demo cards were enrolled a month ago, so they show their settled status rather than PENDING (ADR 0011). */
const DEMO_CARD_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Inserts the demo users of `fixtures/demo-users.json` when the database has no user yet (first
 * start), and does nothing afterwards: data people created is never touched. Passwords become
 * argon2id hashes; cards go through the enrolment code (ADR 0011): last four digits, product type
 * and eligibility from the BIN ranges, keyed fingerprint, never the number (DESIGN "Contracts"); a
 * number two demo users share on one site is enrolled for the first only, as at registration.
 * Returns how many users were inserted.
 */
export async function seedDemoData(db: Database, users: readonly DemoUser[], fingerprint: CardFingerprinter, binRanges: readonly BinRange[]): Promise<number> {
  if (users.length === 0 || (await countUsers(db)) > 0) return 0;

  // Hashing is slow on purpose; do it before the transaction so the lock is held briefly.
  const prepared = await Promise.all(
    users.map(async (user) => ({
      user,
      passwordHash: await hashPassword(user.password),
      // The declared default first: the enrolment code makes the first card the default (SPEC §4).
      cards: [...user.cards]
        .sort((a, b) => Number(b.default) - Number(a.default))
        .map((card) => describeCard(card.pan.replace(/\s/g, ''), user.siteId, binRanges, fingerprint)),
    })),
  );

  const enrolledAt = new Date(Date.now() - DEMO_CARD_AGE_MS);
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
      if (userId === undefined) throw new Error(`The demo user ${user.email} was not inserted`);
      await tx.query('insert into user_sites (user_id, site_id, attributes, passcode_phone) values ($1, $2, $3, $4)', [
        userId,
        user.siteId,
        JSON.stringify(user.attributes),
        passcodePhoneOf(user.attributes),
      ]);
      await insertNewAccountCards(tx, userId, user.siteId, cards, enrolledAt);
      // ADR 0017: an agent works on the sites granted in data, never on one named at sign-in.
      if (user.roles.includes(CONCIERGE_ROLE)) {
        for (const siteId of user.agentSites ?? [user.siteId]) {
          await tx.query('insert into agent_site_grants (user_id, site_id) values ($1, $2)', [userId, siteId]);
        }
      }
    }
    return prepared.length;
  });
}

async function countUsers(db: Database): Promise<number> {
  const result = await db.query<{ count: number }>('select count(*)::int as count from users');
  return result.rows[0]?.count ?? 0;
}

/** Its own lock: the statements are seeded apart from the users, also into a database seeded before they existed. */
const CASHBACK_SEED_LOCK_KEY = 7_270_003;

/**
 * Inserts the demo statement lines of `fixtures/cashback/*.json` (ADR 0010) for the demo users found
 * by e-mail, while no cashback line exists yet. A line's card is its last four digits, linked to the
 * user's enrolled card with those digits when there is one. Returns how many lines were inserted.
 */
export async function seedDemoCashback(db: Database, statements: readonly CashbackStatementFixture[]): Promise<number> {
  if (statements.length === 0) return 0;
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [CASHBACK_SEED_LOCK_KEY]);
    const existing = await tx.query<{ count: number }>('select count(*)::int as count from cashback_lines');
    if ((existing.rows[0]?.count ?? 0) > 0) return 0;
    let inserted = 0;
    for (const statement of statements) {
      const owner = await tx.query<{ id: string }>('select id from users where email = $1', [statement.email.toLowerCase()]);
      const userId = owner.rows[0]?.id;
      if (userId === undefined) continue;
      for (const line of statement.lines) {
        await tx.query(
          `insert into cashback_lines (user_id, site_id, asset_id, last_four, product_type, merchant, transaction_date, amount_minor, currency, status)
           values ($1, $2, (select id from assets where user_id = $1 and site_id = $2 and last_four = $3 order by created_at limit 1), $3, $4, $5, $6, $7, $8, $9)`,
          [userId, statement.siteId, line.lastFour, line.productType, line.merchant, line.date, line.amountMinor, line.currency, line.status],
        );
        inserted += 1;
      }
    }
    return inserted;
  });
}
