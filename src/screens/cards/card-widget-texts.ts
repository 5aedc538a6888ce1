import type { CardEntry } from '../../../schemas/cards/card-rules';
import type { CashbackStatus } from '../../../schemas/entities/cashback-statement';
import type { CardRemovalTexts } from '../../../widgets/cards/use-card-removal';
import type { ManagedCardListTexts } from '../../../widgets/cards/ManagedCardList';
import type { EditDeleteCardFormTexts } from '../../../widgets/cards/EditDeleteCardForm';
import type { CardConfig } from '../../../schemas/cards/card-config';
import type { TextLookup } from '../../content/use-text';

/** The widgets' texts from the `cards` content group, the site's pan_capture texts first (SPEC §3 card config fields). */
export function removalTexts(text: TextLookup, config: CardConfig): CardRemovalTexts {
  return {
    close: text('close'),
    cancel: text('cancel'),
    removeTitle: text('modal.remove.title'),
    removeDescription: text('modal.remove.description'),
    removeConfirm: text('modal.remove.confirm'),
    cannotDeleteDefaultTitle: text('modal.cannotDeleteDefault.title'),
    cannotDeleteDefaultDescription: text('modal.cannotDeleteDefault.description'),
    lastCardTitle: text('modal.lastCard.title'),
    // SPEC §5, §8 "Last-card delete refusal: configured message".
    lastCardRequired: config.texts.panDeleteRequiredMessage ?? text('panRequired'),
    lastCardDescription: text('modal.lastCard.description'),
  };
}

export function managedListTexts(text: TextLookup, config: CardConfig): ManagedCardListTexts {
  return {
    ...removalTexts(text, config),
    listLabel: text('listLabel'),
    defaultLabel: text('default'),
    moreActions: (card: CardEntry) => text('moreActionsFor', { lastFour: card.lastFour }),
    remove: text('remove'),
    setAsDefault: text('setAsDefault'),
    setDefaultTitle: text('modal.setDefault.title'),
    setDefaultDescription: text('modal.setDefault.description'),
    setDefaultConfirm: text('modal.setDefault.confirm'),
  };
}

export function editDeleteTexts(text: TextLookup, config: CardConfig): EditDeleteCardFormTexts {
  return {
    ...removalTexts(text, config),
    listLabel: text('listLabel'),
    deleteText: config.texts.deleteLinkText ?? text('remove'),
    deleteCard: (card: CardEntry) => text('removeCard', { lastFour: card.lastFour }),
  };
}

export function cashbackTexts(text: TextLookup): Record<CashbackStatus, string> {
  return { ELIGIBLE: text('cashback.ELIGIBLE'), NOT_ELIGIBLE: text('cashback.NOT_ELIGIBLE'), PENDING: text('cashback.PENDING') };
}
