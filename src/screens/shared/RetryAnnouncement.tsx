/**
 * The polite announcement of a wait (use-retry-countdown): once when it starts, with the seconds
 * the gateway asked for, and once when the action is back. The region is always there, so the
 * change is heard; the ticking seconds are shown beside the action and are not announced each
 * second.
 */
export function RetryAnnouncement({ waiting, ready }: { waiting: string | null; ready: string | null }) {
  return (
    <p className="visually-hidden" role="status">
      {waiting ?? ready ?? ''}
    </p>
  );
}
