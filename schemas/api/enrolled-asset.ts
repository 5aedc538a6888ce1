/** SPEC §3 "Enrolled asset" as the gateway answers it (ADR 0011): one type for the gateway that writes it and the app that reads it. */
import { CASHBACK_STATUSES, type CashbackStatus } from '../entities/cashback-statement';

export const ASSET_METADATA_NAMES = ['LAST_FOUR', 'PRODUCT_TYPE', 'VOP_CARD_ID', 'ISSUER_BID'] as const;
export type AssetMetadataName = (typeof ASSET_METADATA_NAMES)[number];

export interface EnrolledAsset {
  assetId: string;
  /** The same as `assetId` (SPEC §3 names both). */
  id: string;
  siteId: string;
  assetType: { name: 'PAN' };
  isDefaultAsset: boolean;
  /** The same as `isDefaultAsset` (SPEC §3 names both). */
  defaultAsset: boolean;
  /** LAST_FOUR always; PRODUCT_TYPE, VOP_CARD_ID and ISSUER_BID only when the gateway has a value (ADR 0011). */
  metadata: { name: AssetMetadataName; value: string }[];
  cashbackStatus: CashbackStatus;
}

/** `EnrolledAsset` as JSON Schema, for the OpenAPI document. */
export const ENROLLED_ASSET_SCHEMA = {
  type: 'object',
  required: ['assetId', 'id', 'siteId', 'assetType', 'isDefaultAsset', 'defaultAsset', 'metadata', 'cashbackStatus'],
  properties: {
    assetId: { type: 'string', format: 'uuid' },
    id: { type: 'string', format: 'uuid' },
    siteId: { type: 'string' },
    assetType: { type: 'object', required: ['name'], properties: { name: { const: 'PAN' } } },
    isDefaultAsset: { type: 'boolean' },
    defaultAsset: { type: 'boolean' },
    metadata: {
      type: 'array',
      items: { type: 'object', required: ['name', 'value'], properties: { name: { enum: [...ASSET_METADATA_NAMES] }, value: { type: 'string' } } },
    },
    cashbackStatus: { enum: [...CASHBACK_STATUSES] },
  },
} as const;
