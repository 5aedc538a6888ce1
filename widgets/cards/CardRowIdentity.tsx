import type { ReactNode } from 'react';
import { Ltr } from '../text/Ltr';

/**
 * The start of every card row (SPEC §2 card lists): a chip, the card as the list shows it, and a
 * line under it (product, status, an error). The number stays left to right on a right-to-left page.
 */
export function CardRowIdentity({ number, detail }: { number: ReactNode; detail: ReactNode }) {
  return (
    <>
      <span className="card-row__chip" aria-hidden="true" />
      <span className="card-row__text">
        <Ltr className="card-row__number">{number}</Ltr>
        {detail}
      </span>
    </>
  );
}
