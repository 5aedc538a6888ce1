import { useState } from 'react';
import { removalRefusal, type CardEntry, type RemovalRefusal } from '../../schemas/cards/card-rules';
import { maskCardNumber } from '../../schemas/validators/card-number';
import { Ltr } from '../text/Ltr';
import { Modal } from './Modal';

export interface CardRemovalTexts {
  close: string;
  cancel: string;
  removeTitle: string;
  removeDescription: string;
  removeConfirm: string;
  cannotDeleteDefaultTitle: string;
  cannotDeleteDefaultDescription: string;
  lastCardTitle: string;
  /** The site's required message (pan_capture panDeleteRequiredMessage, else panRequired). */
  lastCardRequired: string;
  /** What to do instead: add another card first. */
  lastCardDescription: string;
}

export interface CardRemovalOptions {
  cards: readonly CardEntry[];
  onRemove: (card: CardEntry) => Promise<void> | void;
  texts: CardRemovalTexts;
}

/**
 * SPEC §2 and §5 removal, shared by the managed list and the edit/delete form: asking to remove
 * a card opens the remove-card modal (description, masked card, remove and cancel), or the
 * cannot-delete-the-default modal, or the only-card modal (close only, the required message and what to do
 * instead). The refusal is said in the dialog the person opened from that card, not in the add form's status line.
 */
export function useCardRemoval({ cards, onRemove, texts }: CardRemovalOptions) {
  const [asked, setAsked] = useState<{ card: CardEntry; refusal: RemovalRefusal | null } | null>(null);
  const [removing, setRemoving] = useState(false);

  const askToRemove = (card: CardEntry) => {
    setAsked({ card, refusal: removalRefusal(cards, card) });
  };

  const close = () => setAsked(null);
  const confirm = async (card: CardEntry) => {
    setRemoving(true);
    try {
      await onRemove(card);
    } finally {
      setRemoving(false);
      setAsked(null);
    }
  };

  const closeButton = (
    <button type="button" className="button button--primary" onClick={close}>
      {texts.close}
    </button>
  );
  let modal = null;
  if (asked?.refusal === 'lastCard') {
    modal = (
      <Modal title={texts.lastCardTitle} closeLabel={texts.close} onClose={close} actions={closeButton}>
        <p className="modal__refusal">{texts.lastCardRequired}</p>
        <p>{texts.lastCardDescription}</p>
      </Modal>
    );
  } else if (asked?.refusal === 'default') {
    modal = (
      <Modal title={texts.cannotDeleteDefaultTitle} closeLabel={texts.close} onClose={close} actions={closeButton}>
        <p>{texts.cannotDeleteDefaultDescription}</p>
      </Modal>
    );
  } else if (asked !== null) {
    const { card } = asked;
    modal = (
      <Modal
        title={texts.removeTitle}
        closeLabel={texts.close}
        onClose={close}
        actions={
          <>
            <button type="button" className="button button--secondary" onClick={close} disabled={removing}>
              {texts.cancel}
            </button>
            <button type="button" className="button button--danger" onClick={() => void confirm(card)} disabled={removing} aria-busy={removing}>
              {texts.removeConfirm}
            </button>
          </>
        }
      >
        <p>{texts.removeDescription}</p>
        <p className="modal__card">
          <Ltr>{maskCardNumber(card.lastFour)}</Ltr>
        </p>
      </Modal>
    );
  }
  return { askToRemove, modal };
}
