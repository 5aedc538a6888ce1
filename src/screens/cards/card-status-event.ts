import type { EnrolledAsset } from '../../../schemas/api/enrolled-asset';

/** The DOM event a card change raises on `window` (SPEC §3 "Card status events"; ADR 0011 "Card status events"). */
export const CARD_STATUS_EVENT = 'cardStatus';

/** Which banner the change is about (SPEC §3 bannerId). */
export type CardBannerId = 'card-added' | 'card-removed' | 'default-card';

/**
 * SPEC §3's shape, a contract with the embedding page and analytics: whether an alert shows, its kind and text, the
 * banner it belongs to, the card list as it stands after the change, and the values its text was filled with (the
 * X-CID of a failure). `hasError` is §8's managed-list delete failure, which carries no message.
 */
export interface CardStatusEventDetail {
  showAlert: boolean;
  alertType: 'success' | 'error';
  alertMessage: string;
  bannerId: CardBannerId;
  assets: EnrolledAsset[];
  magicFields: Record<string, string>;
  hasError?: true;
}

/** Raises the event for whoever listens (`window.addEventListener('cardStatus', …)`); the screen's own alerts are apart. */
export function announceCardStatus(detail: CardStatusEventDetail): void {
  window.dispatchEvent(new CustomEvent<CardStatusEventDetail>(CARD_STATUS_EVENT, { detail }));
}
