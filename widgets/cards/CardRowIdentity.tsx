import type { ReactNode } from 'react';
import { Ltr } from '../text/Ltr';

/**
 * The start of every card row (SPEC §2 card lists): a chip, the card as the list shows it, a
 * line under it (product, status, an error), and what the status means where it needs saying
 * (`note`). The number stays left to right on a right-to-left page.
 */
export function CardRowIdentity({ number, detail, note = null }: { number: ReactNode; detail: ReactNode; note?: string | null }) {
  return (
    <>
      <span className="card-row__chip" aria-hidden="true" />
      <span className="card-row__text">
        <Ltr className="card-row__number">{number}</Ltr>
        {detail}
        {note !== null && <span className="card-row__note">{note}</span>}
      </span>
    </>
  );
}
