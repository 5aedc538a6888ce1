/** SPEC §3 "Enrolled asset" as the gateway answers it (ADR 0011, schemas/api/enrolled-asset.ts), and the card entry the screens show. */
import type { EnrolledAsset } from '../api/enrolled-asset';
import { cashbackStatusOf, withFirstCardDefault, type CardEntry } from './card-rules';

function metadataValue(asset: EnrolledAsset, name: string): string | null {
  const value = asset.metadata.find((entry) => entry.name === name)?.value;
  return value === undefined || value === '' ? null : value;
}

export function cardEntryOf(asset: EnrolledAsset): CardEntry {
  return {
    id: asset.assetId,
    lastFour: metadataValue(asset, 'LAST_FOUR') ?? '',
    productType: metadataValue(asset, 'PRODUCT_TYPE'),
    isDefault: asset.isDefaultAsset,
    cardId: metadataValue(asset, 'VOP_CARD_ID'),
    cashbackStatus: cashbackStatusOf(asset.cashbackStatus),
  };
}

/** The list as shown: SPEC §4 "If no card is default, the first becomes default". */
export function cardEntriesOf(assets: readonly EnrolledAsset[]): CardEntry[] {
  return withFirstCardDefault(assets.map(cardEntryOf));
}
