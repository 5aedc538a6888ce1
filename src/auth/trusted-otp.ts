import type { TokenStorage } from '../app/browser-storage';
import { STORAGE } from '../app/storage-names';

/**
 * SPEC §4 "Trusted-OTP state is stored locally and valid until its expiry passes, then cleared";
 * §9 otp_expiry, 15 minutes. Stored as epoch seconds (§9: expiry checks compare in seconds).
 */
export const TRUSTED_OTP_SECONDS = 15 * 60;

const nowSeconds = (nowMs: number): number => Math.floor(nowMs / 1000);

/** Remembers a passed passcode check until `untilSeconds`, by default 15 minutes from now. */
export function rememberTrustedOtp(store: TokenStorage, nowMs: number, untilSeconds: number = nowSeconds(nowMs) + TRUSTED_OTP_SECONDS): void {
  store.set(STORAGE.otpExpiry, String(untilSeconds));
}

/** True while the stored expiry lies ahead; a passed or unreadable one is cleared. */
export function isTrustedOtpValid(store: TokenStorage, nowMs: number): boolean {
  const stored = store.get(STORAGE.otpExpiry);
  if (stored === null) return false;
  const until = Number(stored);
  if (Number.isFinite(until) && until > nowSeconds(nowMs)) return true;
  store.remove(STORAGE.otpExpiry);
  return false;
}

/** ADR 0008 `verifiedUntil` (ISO text or epoch seconds) as epoch seconds; 15 minutes from now when unreadable. */
export function verifiedUntilSeconds(verifiedUntil: unknown, nowMs: number): number {
  if (typeof verifiedUntil === 'number' && Number.isFinite(verifiedUntil))
    return verifiedUntil > 1e12 ? Math.floor(verifiedUntil / 1000) : Math.floor(verifiedUntil);
  if (typeof verifiedUntil === 'string') {
    const parsed = Date.parse(verifiedUntil);
    if (Number.isFinite(parsed)) return Math.floor(parsed / 1000);
  }
  return nowSeconds(nowMs) + TRUSTED_OTP_SECONDS;
}
