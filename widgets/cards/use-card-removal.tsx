import { useState } from 'react';
import { removalRefusal, type CardEntry } from '../../schemas/cards/card-rules';
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
}

export interface CardRemovalOptions {
  cards: readonly CardEntry[];
  /** pan_capture.optional: the last card may go. */
  optional: boolean;
  onRemove: (card: CardEntry) => Promise<void> | void;
  /** SPEC §5: the last card of a site where a card is required is not removed; the screen shows the required message. */
  onLastCardRefused: () => void;
  texts: CardRemovalTexts;
}

/**
 * SPEC §2 and §5 removal, shared by the managed list and the edit/delete form: asking to remove
 * a card opens the remove-card modal (description, masked card, remove and cancel), or the
 * cannot-delete-the-default modal (close only), or refuses the last card.
 */
export function useCardRemoval({ cards, optional, onRemove, onLastCardRefused, texts }: CardRemovalOptions) {
  const [asked, setAsked] = useState<{ card: CardEntry; refusal: 'default' | null } | null>(null);
  const [removing, setRemoving] = useState(false);

  const askToRemove = (card: CardEntry) => {
    const refusal = removalRefusal(cards, card, optional);
    if (refusal === 'lastCard') onLastCardRefused();
    else setAsked({ card, refusal });
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

  let modal = null;
  if (asked?.refusal === 'default') {
    modal = (
      <Modal
        title={texts.cannotDeleteDefaultTitle}
        closeLabel={texts.close}
        onClose={close}
        actions={
          <button type="button" className="button button--primary" onClick={close}>
            {texts.close}
          </button>
        }
      >
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
