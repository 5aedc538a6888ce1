import { randomBytes } from 'node:crypto';
import { lookupBinRange, type BinRange } from '../../schemas/cards/bin-ranges';
import type { Database, Queryable } from '../db/database';
import { HttpError } from '../http/errors';
import type { CardFingerprinter } from '../security/card-fingerprint';
import { ENV_KEY_ID } from '../security/key-ring';
import { containsCardNumber } from '../logging/scrub-secrets';

/**
 * A card as the gateway keeps it (ADR 0003, ADR 0011 "Card data at rest"): what identifies and
 * describes it, never the number nor its first six digits. Safe in a job payload or a log.
 */
export interface DescribedCard {
  lastFour: string;
  /** Under the current card key, `fingerprintKey` (ADR 0026); what the row stores. */
  fingerprint: string;
  /** Absent in a registration job queued before the key rings (migration 026): the environment's key. */
  fingerprintKey?: string;
  /** The number under every earlier card key, which an earlier card of it is stored under; absent as `fingerprintKey`. */
  earlierFingerprints?: string[];
  productType: string | null;
  eligible: boolean;
  issuerBid: string | null;
}

/** Eligibility, product type and issuer from the BIN ranges, and the keyed fingerprint for duplicates. */
export function describeCard(digits: string, siteId: string, ranges: readonly BinRange[], fingerprint: CardFingerprinter): DescribedCard {
  const match = lookupBinRange(ranges, digits, siteId);
  const fingerprints = fingerprint(digits);
  return {
    lastFour: digits.slice(-4),
    fingerprint: fingerprints.fingerprint,
    fingerprintKey: fingerprints.keyId,
    earlierFingerprints: fingerprints.earlier,
    productType: match.productType,
    eligible: match.eligible,
    issuerBid: match.issuerBid,
  };
}

/** Every fingerprint a stored card of this number may have: one per card key (ADR 0026). */
function fingerprintsOf(card: DescribedCard): string[] {
  return [card.fingerprint, ...(card.earlierFingerprints ?? [])];
}

/** Whether a stored card of this number is among `fingerprints`, under whichever card key it was stored. */
function matchesAny(card: DescribedCard, fingerprints: ReadonlySet<string>): boolean {
  return fingerprintsOf(card).some((fingerprint) => fingerprints.has(fingerprint));
}

/**
 * The card's identifier (SPEC §4 "eligible if it has an identifier attribute", the VOP_CARD_ID
 * metadata): random, so it tells nothing about the number. base64url rarely has long digit runs;
 * one that reads like a card number is drawn again (and `assets_vop_card_id_shape` refuses it).
 */
export function newVopCardId(): string {
  let id = `vop_${randomBytes(16).toString('base64url')}`;
  while (containsCardNumber(id)) id = `vop_${randomBytes(16).toString('base64url')}`;
  return id;
}

/** A row of `assets` as the card calls read it. */
export interface AssetRow {
  id: string;
  site_id: string;
  last_four: string;
  product_type: string | null;
  vop_card_id: string | null;
  issuer_bid: string | null;
  is_default: boolean;
  /** ADR 0011 "One account per card number on a site": false for a number another account holds on the site. */
  programme_enrolled: boolean;
  created_at: Date | string;
}

export const ASSET_COLUMNS = 'id, site_id, last_four, product_type, vop_card_id, issuer_bid, is_default, programme_enrolled, created_at';

/** Key class of the transaction-scoped advisory locks on (site, card number); the second key is a hash of both. */
const SITE_CARD_LOCK_CLASS = 7_270_011;

/**
 * ADR 0011 "One account per card number on a site": locks each of `cards` on the site for the rest of
 * the transaction (in one order, so two enrolments of the same numbers cannot deadlock), then answers
 * the fingerprints another account holds there. Two accounts enrolling one number at once are decided
 * one after the other; the unique index `assets_one_account_per_site_card` holds even without the lock
 * for two cards under one card key. ADR 0026: each number is locked and looked up under every card key, so a
 * number stored under an earlier key is found too, and two enrolments of it still take one lock in common.
 */
export async function lockCardsHeldByOthers(tx: Queryable, userId: string, siteId: string, cards: readonly DescribedCard[]): Promise<ReadonlySet<string>> {
  const fingerprints = [...new Set(cards.flatMap(fingerprintsOf))].sort();
  for (const fingerprint of fingerprints) {
    await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [SITE_CARD_LOCK_CLASS, `${siteId}:${fingerprint}`]);
  }
  const held = await tx.query<{ pan_fingerprint: string }>(
    'select pan_fingerprint from assets where site_id = $1 and pan_fingerprint = any($2::text[]) and programme_enrolled and user_id <> $3',
    [siteId, fingerprints, userId],
  );
  return new Set(held.rows.map((row) => row.pan_fingerprint));
}

/**
 * Inserts `cards` for the user on the site, in order; the first becomes the default when the user
 * has none there (SPEC §4 "If no card is default, the first becomes default", ADR 0011). Run inside
 * a transaction that holds the user's row lock, so "has none" cannot change underneath. A card whose
 * fingerprint is in `notEnrolled` is kept on the account but not enrolled on the site's programme
 * (ADR 0011 "One account per card number on a site"): no card id, so no cashback.
 */
export async function insertCards(
  tx: Queryable,
  userId: string,
  siteId: string,
  cards: readonly DescribedCard[],
  now: Date,
  notEnrolled: ReadonlySet<string> = new Set(),
): Promise<AssetRow[]> {
  const existingDefault = await tx.query<{ id: string }>('select id from assets where user_id = $1 and site_id = $2 and is_default', [userId, siteId]);
  let needsDefault = existingDefault.rows.length === 0;
  const inserted: AssetRow[] = [];
  for (const card of cards) {
    const enrolled = !matchesAny(card, notEnrolled);
    const result = await tx.query<AssetRow>(
      `insert into assets (user_id, site_id, asset_type, last_four, product_type, pan_fingerprint, pan_fingerprint_key, vop_card_id, issuer_bid, is_default,
                           programme_enrolled, created_at)
       values ($1, $2, 'PAN', $3, $4, $5, $11, $6, $7, $8, $9, $10)
       returning ${ASSET_COLUMNS}`,
      [
        userId,
        siteId,
        card.lastFour,
        card.productType,
        card.fingerprint,
        card.eligible && enrolled ? newVopCardId() : null,
        card.issuerBid,
        needsDefault,
        enrolled,
        now,
        card.fingerprintKey ?? ENV_KEY_ID,
      ],
    );
    needsDefault = false;
    const row = result.rows[0];
    if (row) inserted.push(row);
  }
  return inserted;
}

/**
 * The cards of an account being created (registration, the demo data): a number another account
 * already holds on the site is kept but not enrolled, so creating the account never fails on it and
 * its answer tells nothing (ADR 0011 "One account per card number on a site", ADR 0012).
 */
export async function insertNewAccountCards(tx: Queryable, userId: string, siteId: string, cards: readonly DescribedCard[], now: Date): Promise<AssetRow[]> {
  const heldByOthers = await lockCardsHeldByOthers(tx, userId, siteId, cards);
  return insertCards(tx, userId, siteId, cards, now, heldByOthers);
}

/** Where an enrolment comes from: the user, the site and the site's `pan_capture.limit`. */
export interface Enrolment {
  userId: string;
  siteId: string;
  limit: number;
  /** Field names of the cards, in order, for the errors (`userAssetRequest.0.value`). */
  fields: readonly string[];
  cards: readonly DescribedCard[];
}

/**
 * ADR 0011 `POST {assetsUrl}`: all the cards or none. Refuses an ineligible card (400
 * CARD_NOT_ELIGIBLE), a card the user already has on the site or twice in the request (409
 * CARD_DUPLICATE), a card another account holds on the site (409 CARD_NOT_AVAILABLE, "One account
 * per card number on a site") and going past the limit (409 CARD_LIMIT_REACHED). The count and the
 * duplicates are read after locking the user's row and the numbers on the site, so two tabs or two
 * accounts enrolling at once are decided one after the other; the unique indexes still refuse one
 * that got past (23505).
 */
export async function enrolCards(db: Database, enrolment: Enrolment, now: Date): Promise<AssetRow[]> {
  const { userId, siteId, limit, fields, cards } = enrolment;
  const ineligible = cards.flatMap((card, index) => (card.eligible ? [] : [fields[index] ?? `${index}`]));
  if (ineligible.length > 0) {
    throw new HttpError(
      400,
      'CARD_NOT_ELIGIBLE',
      'This card cannot be enrolled in the programme.',
      Object.fromEntries(ineligible.map((field) => [field, 'notEligible'])),
    );
  }
  try {
    return await db.transaction(async (tx) => {
      await tx.query('select id from users where id = $1 for update', [userId]);
      const existing = await tx.query<{ pan_fingerprint: string }>('select pan_fingerprint from assets where user_id = $1 and site_id = $2', [userId, siteId]);
      const seen = new Set(existing.rows.map((row) => row.pan_fingerprint));
      const duplicates: string[] = [];
      cards.forEach((card, index) => {
        if (matchesAny(card, seen)) duplicates.push(fields[index] ?? `${index}`);
        for (const fingerprint of fingerprintsOf(card)) seen.add(fingerprint);
      });
      if (duplicates.length > 0) throw duplicateCard(duplicates);
      const heldByOthers = await lockCardsHeldByOthers(tx, userId, siteId, cards);
      const notAvailable = cards.flatMap((card, index) => (matchesAny(card, heldByOthers) ? [fields[index] ?? `${index}`] : []));
      if (notAvailable.length > 0) throw cardNotAvailable(notAvailable);
      if (existing.rows.length + cards.length > limit) {
        throw new HttpError(409, 'CARD_LIMIT_REACHED', `This site keeps at most ${limit} card(s); remove one first.`, undefined, { extras: { limit } });
      }
      return insertCards(tx, userId, siteId, cards, now);
    });
  } catch (error) {
    if (uniqueViolationOf(error) === ONE_ACCOUNT_PER_SITE_CARD) throw cardNotAvailable(fields);
    if (uniqueViolationOf(error) !== null) throw duplicateCard(fields);
    throw error;
  }
}

function duplicateCard(fields: readonly string[]): HttpError {
  return new HttpError(409, 'CARD_DUPLICATE', 'This card is already enrolled.', Object.fromEntries(fields.map((field) => [field, 'duplicate'])));
}

/** The unique index of migration 011. */
const ONE_ACCOUNT_PER_SITE_CARD = 'assets_one_account_per_site_card';

/**
 * ADR 0011 "One account per card number on a site": the answer says the card cannot be added here and
 * how to get help, never that another account holds it, nor which.
 */
export function cardNotAvailable(fields: readonly string[]): HttpError {
  return new HttpError(
    409,
    'CARD_NOT_AVAILABLE',
    'This card cannot be added to this account. If it is yours, contact support and quote the X-CID of this answer.',
    Object.fromEntries(fields.map((field) => [field, 'notAvailable'])),
  );
}

/** The constraint of PostgreSQL's unique_violation, as both drivers report it, or null for any other error. */
function uniqueViolationOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== '23505') return null;
  const constraint = (error as { constraint?: unknown }).constraint;
  return typeof constraint === 'string' ? constraint : '';
}
