import { randomBytes } from 'node:crypto';
import { lookupBinRange, type BinRange } from '../../schemas/cards/bin-ranges';
import type { Database, Queryable } from '../db/database';
import { HttpError } from '../http/errors';
import type { CardFingerprinter } from '../security/card-fingerprint';
import { containsCardNumber } from '../logging/scrub-secrets';

/**
 * A card as the gateway keeps it (ADR 0003, ADR 0011 "Card data at rest"): what identifies and
 * describes it, never the number nor its first six digits. Safe in a job payload or a log.
 */
export interface DescribedCard {
  lastFour: string;
  fingerprint: string;
  productType: string | null;
  eligible: boolean;
  issuerBid: string | null;
}

/** Eligibility, product type and issuer from the BIN ranges, and the keyed fingerprint for duplicates. */
export function describeCard(digits: string, siteId: string, ranges: readonly BinRange[], fingerprint: CardFingerprinter): DescribedCard {
  const match = lookupBinRange(ranges, digits, siteId);
  return { lastFour: digits.slice(-4), fingerprint: fingerprint(digits), productType: match.productType, eligible: match.eligible, issuerBid: match.issuerBid };
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
  created_at: Date | string;
}

export const ASSET_COLUMNS = 'id, site_id, last_four, product_type, vop_card_id, issuer_bid, is_default, created_at';

/**
 * Inserts `cards` for the user on the site, in order; the first becomes the default when the user
 * has none there (SPEC §4 "If no card is default, the first becomes default", ADR 0011). Run inside
 * a transaction that holds the user's row lock, so "has none" cannot change underneath.
 */
export async function insertCards(tx: Queryable, userId: string, siteId: string, cards: readonly DescribedCard[], now: Date): Promise<AssetRow[]> {
  const existingDefault = await tx.query<{ id: string }>('select id from assets where user_id = $1 and site_id = $2 and is_default', [userId, siteId]);
  let needsDefault = existingDefault.rows.length === 0;
  const inserted: AssetRow[] = [];
  for (const card of cards) {
    const result = await tx.query<AssetRow>(
      `insert into assets (user_id, site_id, asset_type, last_four, product_type, pan_fingerprint, vop_card_id, issuer_bid, is_default, created_at)
       values ($1, $2, 'PAN', $3, $4, $5, $6, $7, $8, $9)
       returning ${ASSET_COLUMNS}`,
      [userId, siteId, card.lastFour, card.productType, card.fingerprint, card.eligible ? newVopCardId() : null, card.issuerBid, needsDefault, now],
    );
    needsDefault = false;
    const row = result.rows[0];
    if (row) inserted.push(row);
  }
  return inserted;
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
 * CARD_DUPLICATE), and going past the limit (409 CARD_LIMIT_REACHED). The count and the
 * duplicates are read after locking the user's row, so two tabs enrolling at once are decided one
 * after the other; the unique fingerprint still refuses a duplicate that got past (23505).
 */
export async function enrolCards(db: Database, enrolment: Enrolment, now: Date): Promise<AssetRow[]> {
  const { userId, siteId, limit, fields, cards } = enrolment;
  const ineligible = cards.flatMap((card, index) => (card.eligible ? [] : [fields[index] ?? `${index}`]));
  if (ineligible.length > 0) {
    throw new HttpError(400, 'CARD_NOT_ELIGIBLE', 'This card cannot be enrolled in the programme.', Object.fromEntries(ineligible.map((field) => [field, 'notEligible'])));
  }
  try {
    return await db.transaction(async (tx) => {
      await tx.query('select id from users where id = $1 for update', [userId]);
      const existing = await tx.query<{ pan_fingerprint: string }>('select pan_fingerprint from assets where user_id = $1 and site_id = $2', [userId, siteId]);
      const seen = new Set(existing.rows.map((row) => row.pan_fingerprint));
      const duplicates: string[] = [];
      cards.forEach((card, index) => {
        if (seen.has(card.fingerprint)) duplicates.push(fields[index] ?? `${index}`);
        seen.add(card.fingerprint);
      });
      if (duplicates.length > 0) throw duplicateCard(duplicates);
      if (existing.rows.length + cards.length > limit) {
        throw new HttpError(409, 'CARD_LIMIT_REACHED', `This site keeps at most ${limit} card(s); remove one first.`, undefined, { extras: { limit } });
      }
      return insertCards(tx, userId, siteId, cards, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateCard(fields);
    throw error;
  }
}

function duplicateCard(fields: readonly string[]): HttpError {
  return new HttpError(409, 'CARD_DUPLICATE', 'This card is already enrolled.', Object.fromEntries(fields.map((field) => [field, 'duplicate'])));
}

/** PostgreSQL's unique_violation, as both drivers report it. */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
