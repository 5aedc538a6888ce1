import { STORAGE } from '../app/storage-names';

type MarkStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const sessionStore = (): MarkStorage | null => (typeof window === 'undefined' ? null : window.sessionStorage);

/**
 * The person just signed out: the sign-in page they land on says so, in the page's language. After an SSO sign-out
 * the holder comes back to redirect-sso, the sign-in start, by one of three ways: the OIDC provider's end-session
 * redirect (to a registered redirect URI, which must match exactly and so carries nothing of ours), the SAML single
 * logout's answer (docs/decisions/0028-sso-saml.md), or a local sign-out; a password site's sign-out goes to its
 * sign-in form. The tab's session storage carries the fact across all of these, so the address carries no flag that
 * would stay on later links. Only the site id is kept. Redirect-sso says it until a sign-in starts (it is the page
 * the holder stays on); the sign-in form takes it once, so a reload of that page does not say it again.
 */
export function markSignedOut(siteId: string, storage: MarkStorage | null = sessionStore()): void {
  storage?.setItem(STORAGE.signedOut, siteId);
}

export function isMarkedSignedOut(siteId: string, storage: MarkStorage | null = sessionStore()): boolean {
  return storage?.getItem(STORAGE.signedOut) === siteId;
}

export function clearSignedOutMark(storage: MarkStorage | null = sessionStore()): void {
  storage?.removeItem(STORAGE.signedOut);
}

/** Whether `siteId` was just signed out, taken once: the mark goes as it is read. */
export function takeSignedOutMark(siteId: string, storage: MarkStorage | null = sessionStore()): boolean {
  const marked = isMarkedSignedOut(siteId, storage);
  clearSignedOutMark(storage);
  return marked;
}
