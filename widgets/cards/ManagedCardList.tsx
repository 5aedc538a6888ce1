import { useState } from 'react';
import { canSetDefault, type CardEntry } from '../../schemas/cards/card-rules';
import { maskCardNumber } from '../../schemas/validators/card-number';
import { CardActionsMenu } from './CardActionsMenu';
import { Ltr } from '../text/Ltr';
import { Modal } from './Modal';
import { useCardRemoval, type CardRemovalTexts } from './use-card-removal';
import './cards.css';
import { CardRowIdentity } from './CardRowIdentity';

export interface ManagedCardListTexts extends CardRemovalTexts {
  listLabel: string;
  defaultLabel: string;
  /** The menu button's name for one card ("More actions for the card ending in 1111"). */
  moreActions: (card: CardEntry) => string;
  remove: string;
  setAsDefault: string;
  setDefaultTitle: string;
  setDefaultDescription: string;
  setDefaultConfirm: string;
}

export interface ManagedCardListProps {
  cards: readonly CardEntry[];
  /** SPEC §4 "Set-as-default only for non-default cards and only if pan update is allowed". */
  updateAllowed: boolean;
  productName: (card: CardEntry) => string;
  /** The card's SPEC §4 status as text ("Being checked"). */
  statusText: (card: CardEntry) => string;
  /** What the status means, where it needs saying (ADR 0011: why a new card is being checked); null for none. */
  statusNote: (card: CardEntry) => string | null;
  onRemove: (card: CardEntry) => Promise<void> | void;
  onSetDefault: (card: CardEntry) => Promise<void> | void;
  texts: ManagedCardListTexts;
}

/**
 * SPEC §2 managed list: bullets plus last four, the Default label, a menu per card with Remove
 * and (non-default cards, updates allowed) Set as default, and the three modals.
 */
export function ManagedCardList({ cards, updateAllowed, productName, statusText, statusNote, onRemove, onSetDefault, texts }: ManagedCardListProps) {
  const removal = useCardRemoval({ cards, onRemove, texts });
  const [defaultAsked, setDefaultAsked] = useState<CardEntry | null>(null);
  const [settingDefault, setSettingDefault] = useState(false);

  const confirmDefault = async (card: CardEntry) => {
    setSettingDefault(true);
    try {
      await onSetDefault(card);
    } finally {
      setSettingDefault(false);
      setDefaultAsked(null);
    }
  };

  return (
    <>
      <ul className="card-rows" aria-label={texts.listLabel}>
        {cards.map((card) => (
          <li key={card.id} className={`card-row${card.isDefault ? ' card-row--default' : ''}`}>
            <CardRowIdentity
              number={
                <>
                  <span aria-hidden="true">•••• </span>
                  <span className="visually-hidden">{maskCardNumber(card.lastFour).slice(0, -4)}</span>
                  {card.lastFour}
                </>
              }
              detail={
                <span className="card-row__product">
                  {productName(card)} · {statusText(card)}
                </span>
              }
              note={statusNote(card)}
            />
            {card.isDefault && <span className="card-badge card-badge--brand">{texts.defaultLabel}</span>}
            <CardActionsMenu
              label={texts.moreActions(card)}
              actions={[
                { label: texts.remove, run: () => removal.askToRemove(card) },
                ...(canSetDefault(card, updateAllowed) ? [{ label: texts.setAsDefault, run: () => setDefaultAsked(card) }] : []),
              ]}
            />
          </li>
        ))}
      </ul>
      {removal.modal}
      {defaultAsked !== null && (
        <Modal
          title={texts.setDefaultTitle}
          closeLabel={texts.close}
          onClose={() => setDefaultAsked(null)}
          actions={
            <>
              <button type="button" className="button button--secondary" onClick={() => setDefaultAsked(null)} disabled={settingDefault}>
                {texts.cancel}
              </button>
              <button
                type="button"
                className="button button--primary"
                onClick={() => void confirmDefault(defaultAsked)}
                disabled={settingDefault}
                aria-busy={settingDefault}
              >
                {texts.setDefaultConfirm}
              </button>
            </>
          }
        >
          <p>{texts.setDefaultDescription}</p>
          <p className="modal__card">
            <Ltr>{maskCardNumber(defaultAsked.lastFour)}</Ltr>
          </p>
        </Modal>
      )}
    </>
  );
}
