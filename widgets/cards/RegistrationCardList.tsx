import { panDigitsOf } from '../../schemas/cards/card-rules';
import { maskCardNumber } from '../../schemas/validators/card-number';
import './cards.css';
import { CardRowIdentity } from './CardRowIdentity';
import { nameWithVisibleText } from './visible-text-name';

export interface RegistrationCardListTexts {
  listLabel: string;
  removeText: string;
  removeCard: (lastFour: string) => string;
  invalidCard: (lastFour: string) => string;
}

export interface RegistrationCardListProps {
  /** The numbers added so far (kept in memory until the registration is sent). */
  cards: readonly string[];
  /** Indexes of the cards the gateway refused. */
  invalid: ReadonlySet<number>;
  onRemove: (index: number) => void;
  texts: RegistrationCardListTexts;
}

/** SPEC §2 registration form: several cards in a list, masked, each with a remove link. */
export function RegistrationCardList({ cards, invalid, onRemove, texts }: RegistrationCardListProps) {
  if (cards.length === 0) return null;
  return (
    <ul className="card-rows" aria-label={texts.listLabel}>
      {cards.map((card, index) => {
        const lastFour = panDigitsOf(card).slice(-4);
        return (
          <li key={panDigitsOf(card)} className={`card-row${invalid.has(index) ? ' card-row--invalid' : ''}`}>
            <CardRowIdentity
              number={maskCardNumber(lastFour)}
              detail={
                invalid.has(index) && (
                  <span className="field__error" role="alert">
                    {texts.invalidCard(lastFour)}
                  </span>
                )
              }
            />
            <button
              type="button"
              className="link-button card-row__action"
              aria-label={nameWithVisibleText(texts.removeText, texts.removeCard(lastFour))}
              onClick={() => onRemove(index)}
            >
              {texts.removeText}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
