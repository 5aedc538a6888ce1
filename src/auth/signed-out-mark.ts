import { STORAGE } from '../app/storage-names';

type MarkStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const sessionStore = (): MarkStorage | null => (typeof window === 'undefined' ? null : window.sessionStorage);

/**
 * After an SSO sign-out the holder comes back to redirect-sso, the sign-in start, by one of three ways: the OIDC
 * provider's end-session redirect (to a registered redirect URI, which must match exactly and so carries nothing
 * of ours), the SAML single logout's answer (docs/decisions/0028-sso-saml.md), or a local sign-out. The tab's
 * session storage carries the fact across all three, so that page says they are signed out instead of "Signing
 * you in". Only the site id is kept; starting a sign-in takes the mark away.
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
