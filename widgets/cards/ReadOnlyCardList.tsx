import { CASHBACK_STATUS_OF_CARD, cardStatus, type CardEntry } from '../../schemas/cards/card-rules';
import type { CashbackStatus } from '../../schemas/entities/cashback-statement';
import { maskCardNumber } from '../../schemas/validators/card-number';
import './cards.css';
import { CardRowIdentity } from './CardRowIdentity';

export interface ReadOnlyCardListProps {
  cards: readonly CardEntry[];
  label: string;
  /** SPEC §6 "cashback badges on cashback-enabled flags". */
  showCashback: boolean;
  /** The badge texts (content `cards.cashback.*`). */
  cashbackTexts: Readonly<Record<CashbackStatus, string>>;
  /** The card's product name ("FirstBank Signature"). */
  productName: (card: CardEntry) => string;
  /** Beside a pending badge, why (ADR 0011: a new card is checked with the bank for up to a day). */
  pendingNote: string;
  /** Beside a card that does not earn, with or without badges: that it earns nothing here and where to get help (ADR 0011). */
  notEligibleNote: string;
}

const BADGE_TONE: Readonly<Record<CashbackStatus, string>> = { ELIGIBLE: 'green', NOT_ELIGIBLE: 'red', PENDING: 'blue' };

function CashbackBadge({ status, texts }: { status: CashbackStatus; texts: Readonly<Record<CashbackStatus, string>> }) {
  return <span className={`card-badge card-badge--${BADGE_TONE[status]}`}>{texts[status]}</span>;
}

/** SPEC §2 read-only list: each card as XXXX XXXX XXXX plus its last four; with cashback on, a badge per card (§3 colours), of the status Manage cards shows too (card-rules.ts `cardStatus`). */
export function ReadOnlyCardList({ cards, label, showCashback, cashbackTexts, productName, pendingNote, notEligibleNote }: ReadOnlyCardListProps) {
  return (
    <ul className="card-rows" aria-label={label}>
      {cards.map((card) => {
        const status = CASHBACK_STATUS_OF_CARD[cardStatus(card)];
        let note: string | null = null;
        if (status === 'NOT_ELIGIBLE') note = notEligibleNote;
        else if (showCashback && status === 'PENDING') note = pendingNote;
        return (
          <li key={card.id} className="card-row">
            <CardRowIdentity number={maskCardNumber(card.lastFour)} detail={<span className="card-row__product">{productName(card)}</span>} note={note} />
            {showCashback && <CashbackBadge status={status} texts={cashbackTexts} />}
          </li>
        );
      })}
    </ul>
  );
}
