import type { EnrolledAsset } from '../../schemas/api/enrolled-asset';
import type { CashbackStatus } from '../../schemas/entities/cashback-statement';
import { removalRefusal } from '../../schemas/cards/card-rules';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';
import { ASSET_COLUMNS, type AssetRow } from './card-enrolment';

/** ADR 0011: a card enrolled less than a day ago is PENDING. */
const PENDING_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The row as the app sees it. Metadata entries the gateway has no value for are left out:
 * VOP_CARD_ID only for an eligible card enrolled on the site's programme (SPEC §4 card status; ADR
 * 0011 "One account per card number on a site"), PRODUCT_TYPE and ISSUER_BID only when the BIN
 * ranges gave one. A card not enrolled on the programme is NOT_ELIGIBLE from the start.
 */
export function enrolledAsset(row: AssetRow, now: Date): EnrolledAsset {
  const cardId = row.programme_enrolled ? row.vop_card_id : null;
  const metadata: EnrolledAsset['metadata'] = [{ name: 'LAST_FOUR', value: row.last_four }];
  if (row.product_type !== null) metadata.push({ name: 'PRODUCT_TYPE', value: row.product_type });
  if (cardId !== null) metadata.push({ name: 'VOP_CARD_ID', value: cardId });
  if (row.issuer_bid !== null) metadata.push({ name: 'ISSUER_BID', value: row.issuer_bid });
  const enrolledAt = new Date(row.created_at).getTime();
  const cashbackStatus: CashbackStatus = !row.programme_enrolled
    ? 'NOT_ELIGIBLE'
    : now.getTime() - enrolledAt < PENDING_MS
      ? 'PENDING'
      : cardId !== null
        ? 'ELIGIBLE'
        : 'NOT_ELIGIBLE';
  return {
    assetId: row.id,
    id: row.id,
    siteId: row.site_id,
    assetType: { name: 'PAN' },
    isDefaultAsset: row.is_default,
    defaultAsset: row.is_default,
    metadata,
    cashbackStatus,
  };
}

/** ADR 0011 order: the default first, then oldest first. */
export async function listAssets(db: Database, userId: string, siteId: string | null): Promise<AssetRow[]> {
  const result = await db.query<AssetRow>(
    `select ${ASSET_COLUMNS} from assets
      where user_id = $1 and ($2::text is null or site_id = $2)
      order by is_default desc, created_at, enrolment_order`,
    [userId, siteId],
  );
  return result.rows;
}

/** The user's card with this id; 404 CARD_NOT_FOUND for an unknown id, a malformed one, or another user's card. */
export async function findOwnAsset(db: Database, userId: string, siteId: string, assetId: string): Promise<AssetRow> {
  const found = UUID.test(assetId)
    ? await db.query<AssetRow>(`select ${ASSET_COLUMNS} from assets where id = $1 and user_id = $2 and site_id = $3`, [assetId, userId, siteId])
    : { rows: [] };
  const row = found.rows[0];
  if (!row) throw new HttpError(404, 'CARD_NOT_FOUND', 'No such card on your account.');
  return row;
}

/**
 * ADR 0011 remove-asset, decided under the user's row lock by the browser's own rule (`removalRefusal`, SPEC §5
 * "Card removal: only if more than one card and not the default", §9 "removal needs more than one card"): 409
 * LAST_CARD for the site's only card, on every site, 409 DEFAULT_CARD for the default card.
 */
export async function removeAsset(db: Database, userId: string, assetId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('select id from users where id = $1 for update', [userId]);
    const found = await tx.query<{ site_id: string; is_default: boolean }>('select site_id, is_default from assets where id = $1 and user_id = $2', [
      assetId,
      userId,
    ]);
    const card = found.rows[0];
    if (!card) throw new HttpError(404, 'CARD_NOT_FOUND', 'No such card on your account.');
    const siteCards = await tx.query<{ is_default: boolean }>('select is_default from assets where user_id = $1 and site_id = $2', [userId, card.site_id]);
    const refusal = removalRefusal(
      siteCards.rows.map((row) => ({ isDefault: row.is_default })),
      { isDefault: card.is_default },
    );
    if (refusal === 'lastCard') throw new HttpError(409, 'LAST_CARD', 'Your account needs at least one card; add another before removing this one.');
    if (refusal === 'default') throw new HttpError(409, 'DEFAULT_CARD', 'The default card cannot be removed; make another card the default first.');
    await tx.query('delete from assets where id = $1', [assetId]);
  });
}

/**
 * ADR 0011 set default (SPEC §4 "Setting a default marks only that card"): under the user's row
 * lock the site's other default is cleared first, so the partial unique index never sees two.
 */
export async function setDefaultAsset(db: Database, userId: string, assetId: string): Promise<AssetRow> {
  return db.transaction(async (tx) => {
    await tx.query('select id from users where id = $1 for update', [userId]);
    const found = await tx.query<{ site_id: string }>('select site_id from assets where id = $1 and user_id = $2', [assetId, userId]);
    const card = found.rows[0];
    if (!card) throw new HttpError(404, 'CARD_NOT_FOUND', 'No such card on your account.');
    await tx.query('update assets set is_default = false where user_id = $1 and site_id = $2 and is_default and id <> $3', [userId, card.site_id, assetId]);
    const updated = await tx.query<AssetRow>(`update assets set is_default = true where id = $1 returning ${ASSET_COLUMNS}`, [assetId]);
    const row = updated.rows[0];
    if (!row) throw new HttpError(404, 'CARD_NOT_FOUND', 'No such card on your account.');
    return row;
  });
}
