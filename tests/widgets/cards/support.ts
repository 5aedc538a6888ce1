import type { CardEntry } from '../../../schemas/cards/card-rules';
import type { ManagedCardListTexts } from '../../../widgets/cards/ManagedCardList';

export function card(id: string, lastFour: string, overrides: Partial<CardEntry> = {}): CardEntry {
  return { id, lastFour, productType: 'C', isDefault: false, cardId: null, cashbackStatus: null, ...overrides };
}

export const MANAGED_TEXTS: ManagedCardListTexts = {
  close: 'Close',
  cancel: 'Cancel',
  removeTitle: 'Remove card',
  removeDescription: 'This card will no longer earn rewards.',
  removeConfirm: 'Remove',
  cannotDeleteDefaultTitle: "You can't remove your default card",
  cannotDeleteDefaultDescription: 'Set another card as your default first.',
  lastCardTitle: "You can't remove your only card",
  lastCardRequired: 'You need at least one card on your account.',
  lastCardDescription: 'Add another card and make it your default first, then remove this one.',
  listLabel: 'Your cards',
  defaultLabel: 'Default',
  moreActions: (entry) => `More actions for the card ending in ${entry.lastFour}`,
  remove: 'Remove card…',
  setAsDefault: 'Set as default',
  setDefaultTitle: 'Set as default card',
  setDefaultDescription: 'Rewards go to this card first.',
  setDefaultConfirm: 'Make default',
};
