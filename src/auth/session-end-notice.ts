/**
 * Why the gateway ended this tab's session elsewhere (`sessionEnded` of a 401 UNAUTHENTICATED,
 * gateway/http/route-access.ts): a new password set on another device signs every other session out.
 * The sign-in page says so once instead of leaving the holder to wonder (SPEC §8 sends them there,
 * often with a full reload, so the reason waits in the tab's session storage: never a secret).
 */
const NOTICE_KEY = 'session_ended';

export type SessionEnd = 'password_changed';

type NoticeStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Reads the gateway's `sessionEnded` detail; null for any other answer. */
export function sessionEndOf(details: Readonly<Record<string, unknown>> | undefined): SessionEnd | null {
  return details?.sessionEnded === 'password_changed' ? 'password_changed' : null;
}

export function rememberSessionEnd(reason: SessionEnd, storage: NoticeStorage = window.sessionStorage): void {
  storage.setItem(NOTICE_KEY, reason);
}

/** The reason kept for the sign-in page, taken once: a reload of that page does not say it again. */
export function takeSessionEnd(storage: NoticeStorage = window.sessionStorage): SessionEnd | null {
  const kept = storage.getItem(NOTICE_KEY);
  storage.removeItem(NOTICE_KEY);
  return kept === 'password_changed' ? kept : null;
}
