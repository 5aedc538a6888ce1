import { useEffect, useState } from 'react';

/** SPEC §9 "Status message delay 100 ms, shown 10000 ms". */
export const STATUS_MESSAGE_DELAY_MS = 100;
export const STATUS_MESSAGE_SHOWN_MS = 10_000;

export interface CardStatus {
  text: string;
  kind: 'success' | 'error';
  /** A new number for each event, so the same text shown twice starts its timers again. */
  serial: number;
}

/**
 * SPEC §2 capture block status message (panAdded, panRequired, panDeleted): it appears 100 ms
 * after the event and goes 10 s later, inside a live region that is always in the page so
 * screen readers announce it when its text arrives.
 */
export function CardStatusMessage({ status }: { status: CardStatus | null }) {
  const [shown, setShown] = useState<CardStatus | null>(null);

  useEffect(() => {
    if (status === null) return;
    const appear = window.setTimeout(() => setShown(status), STATUS_MESSAGE_DELAY_MS);
    const disappear = window.setTimeout(() => setShown(null), STATUS_MESSAGE_DELAY_MS + STATUS_MESSAGE_SHOWN_MS);
    return () => {
      window.clearTimeout(appear);
      window.clearTimeout(disappear);
      setShown(null);
    };
  }, [status]);

  return (
    <div className="card-status" aria-live={shown?.kind === 'error' ? 'assertive' : 'polite'} aria-atomic="true">
      {shown !== null && (
        <p className={`alert alert--${shown.kind} card-status__message`} role={shown.kind === 'error' ? 'alert' : undefined}>
          <span className="alert__message">{shown.text}</span>
        </p>
      )}
    </div>
  );
}
