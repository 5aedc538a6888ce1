import type { ReactNode } from 'react';
import type { CardEntry } from '../../schemas/cards/card-rules';
import { maskCardNumber } from '../../schemas/validators/card-number';
import { useCardRemoval, type CardRemovalTexts } from './use-card-removal';
import './cards.css';
import { CardRowIdentity } from './CardRowIdentity';
import { nameWithVisibleText } from './visible-text-name';

export interface EditDeleteCardFormTexts extends CardRemovalTexts {
  listLabel: string;
  /** pan_capture.deleteLinkText, else the content text. */
  deleteText: string;
  /** The delete button's full name for one card ("Remove the card ending in 1111"). */
  deleteCard: (card: CardEntry) => string;
}

export interface EditDeleteCardFormProps {
  cards: readonly CardEntry[];
  productName: (card: CardEntry) => string;
  /** The card's SPEC §4 status as text ("Being checked"). */
  statusText: (card: CardEntry) => string;
  /** What the status means, where it needs saying (ADR 0011: why a new card is being checked); null for none. */
  statusNote: (card: CardEntry) => string | null;
  onRemove: (card: CardEntry) => Promise<void> | void;
  /** The add form (the capture block); the screen leaves it out at the limit (SPEC §4). */
  addForm: ReactNode;
  texts: EditDeleteCardFormTexts;
}

/** SPEC §2 edit/delete form: the enrolled cards, each with a delete link, then the add form while the limit is not reached. */
export function EditDeleteCardForm({ cards, productName, statusText, statusNote, onRemove, addForm, texts }: EditDeleteCardFormProps) {
  const removal = useCardRemoval({ cards, onRemove, texts });
  return (
    <div className="card-edit">
      {cards.length > 0 && (
        <ul className="card-rows" aria-label={texts.listLabel}>
          {cards.map((card) => (
            <li key={card.id} className="card-row">
              <CardRowIdentity
                number={maskCardNumber(card.lastFour)}
                detail={
                  <span className="card-row__product">
                    {productName(card)} · {statusText(card)}
                  </span>
                }
                note={statusNote(card)}
              />
              <button
                type="button"
                className="link-button card-row__action"
                aria-label={nameWithVisibleText(texts.deleteText, texts.deleteCard(card))}
                onClick={() => removal.askToRemove(card)}
              >
                {texts.deleteText}
              </button>
            </li>
          ))}
        </ul>
      )}
      {addForm}
      {removal.modal}
    </div>
  );
}
