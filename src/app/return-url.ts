import { STORAGE } from './storage-names';

/**
 * SPEC §2 "returnurl is stored only if valid": the root screen stored it in session storage on
 * entry (entry-query.ts validated it). Signing in takes it once; without one the user goes to /profile.
 */
export function takeReturnUrl(storage: Pick<Storage, 'getItem' | 'removeItem'> = window.sessionStorage): string | null {
  const stored = storage.getItem(STORAGE.returnUrl);
  storage.removeItem(STORAGE.returnUrl);
  return stored;
}
