import { createHash } from 'node:crypto';
import type { Clock } from '../time/clock';
import { HttpError } from '../http/errors';
import type { CounterStore } from './counter-store';

const MINUTE_MS = 60_000;

/** ADR 0008 "Limits", also in the README's "Sign-in limits". */
export const SIGN_IN_LIMITS = {
  /** Wrong passwords for one account in a row, then USER_LOCKED. */
  passwordFailuresPerAccount: 5,
  /** Failed sign-ins from one device (cookie gmap_device) across accounts within the window, then DEVICE_LOCKED. */
  failuresPerDevice: 10,
  failuresPerDeviceWindowMs: 15 * MINUTE_MS,
  lockMs: 15 * MINUTE_MS,
  /** Login and token calls per IP. */
  signInCallsPerIp: 30,
  signInCallsWindowMs: 5 * MINUTE_MS,
  /** Code sends per account. */
  codeSendsPerAccount: 5,
  codeSendsWindowMs: 15 * MINUTE_MS,
  /** Code and passcode checks per IP. */
  codeChecksPerIp: 60,
  codeChecksWindowMs: 5 * MINUTE_MS,
  /** Wrong authenticator codes per account, like the 5 attempts of an e-mailed code (ADR 0008 OTP_INVALID attemptsLeft). */
  totpAttemptsPerAccount: 5,
  totpAttemptsWindowMs: 10 * MINUTE_MS,
  /** ADR 0009: registration, activation-email and send-passcode calls per IP. */
  accountCallsPerIp: 20,
  accountCallsWindowMs: 15 * MINUTE_MS,
  /** ADR 0009: activation, recovery and "someone tried to register" mails per typed address, known or not. */
  accountMailsPerAddress: 5,
  accountMailsWindowMs: 15 * MINUTE_MS,
  /** ADR 0011: the open card validation call per IP (a person adds a handful of cards, a script tries thousands). */
  cardValidationsPerIp: 100,
  cardValidationsWindowMs: 15 * MINUTE_MS,
  /**
   * ADR 0011 "One account per card number on a site": enrolments refused because another account holds
   * the number, per account; past them every enrolment of the account waits, so the refusal cannot be
   * used to find which numbers are enrolled on the site.
   */
  cardsNotAvailablePerAccount: 5,
  cardsNotAvailableWindowMs: 24 * 60 * MINUTE_MS,
  /**
   * docs/decisions/0022-declared-calls.md: alias calls per account (and per agent). A 409 says an alias is
   * taken on the site, so unbounded calls would list who is there; a person picks a handle in a few tries.
   */
  aliasCallsPerAccount: 10,
  aliasCallsWindowMs: 15 * MINUTE_MS,
} as const;

/** "In a row" ends with a success; a day bounds how long a streak of failures is remembered. */
const FAILURE_STREAK_MS = 24 * 60 * MINUTE_MS;

/**
 * The abuse rules of ADR 0008 over a CounterStore. Accounts are keyed by a hash of the typed
 * user name, not by user id, so an unknown name locks exactly like a real one (no enumeration)
 * and no e-mail address is written into Redis.
 */
export class SignInLimits {
  constructor(
    private readonly store: CounterStore,
    private readonly clock: Clock,
    /** README "Metrics": told when a lock starts (never whose). */
    private readonly onLockStarted: (lock: 'account' | 'device') => void = () => undefined,
  ) {}

  /** 429 RATE_LIMITED past 30 login/token calls per IP in 5 minutes. */
  countSignInCall(ip: string): Promise<void> {
    return this.countOrRefuse(`ip:sign-in:${ip}`, SIGN_IN_LIMITS.signInCallsPerIp, SIGN_IN_LIMITS.signInCallsWindowMs);
  }

  /** 429 RATE_LIMITED past 60 code checks per IP in 5 minutes. */
  countCodeCheck(ip: string): Promise<void> {
    return this.countOrRefuse(`ip:code-check:${ip}`, SIGN_IN_LIMITS.codeChecksPerIp, SIGN_IN_LIMITS.codeChecksWindowMs);
  }

  /** 429 RATE_LIMITED past 5 code sends per account in 15 minutes. */
  countCodeSend(userId: string): Promise<void> {
    return this.countOrRefuse(`user:code-send:${userId}`, SIGN_IN_LIMITS.codeSendsPerAccount, SIGN_IN_LIMITS.codeSendsWindowMs);
  }

  /** 429 RATE_LIMITED past 20 registration, resend and recovery calls per IP in 15 minutes. */
  countAccountCall(ip: string): Promise<void> {
    return this.countOrRefuse(`ip:account:${ip}`, SIGN_IN_LIMITS.accountCallsPerIp, SIGN_IN_LIMITS.accountCallsWindowMs);
  }

  /** 429 RATE_LIMITED past 100 card validations per IP in 15 minutes. */
  countCardValidation(ip: string): Promise<void> {
    return this.countOrRefuse(`ip:card-validation:${ip}`, SIGN_IN_LIMITS.cardValidationsPerIp, SIGN_IN_LIMITS.cardValidationsWindowMs);
  }

  /** 429 RATE_LIMITED past 10 alias calls per account in 15 minutes; counted before the alias is looked up. */
  countAliasCall(userId: string): Promise<void> {
    return this.countOrRefuse(`user:alias:${userId}`, SIGN_IN_LIMITS.aliasCallsPerAccount, SIGN_IN_LIMITS.aliasCallsWindowMs);
  }

  /**
   * 429 RATE_LIMITED for every enrolment of an account that had 5 cards refused as held by another
   * account in 24 hours; checked before the numbers are looked at, so the 429 tells nothing about them.
   */
  async assertCardEnrolmentsAllowed(userId: string): Promise<void> {
    const now = this.clock.now();
    const refusals = await this.store.peek(`user:card-not-available:${userId}`, now);
    if (refusals !== null && refusals.count >= SIGN_IN_LIMITS.cardsNotAvailablePerAccount) throw rateLimited(refusals.resetAt, now);
  }

  /** An enrolment refused with CARD_NOT_AVAILABLE (ADR 0011). */
  async recordCardNotAvailable(userId: string): Promise<void> {
    await this.store.increment(`user:card-not-available:${userId}`, SIGN_IN_LIMITS.cardsNotAvailableWindowMs, this.clock.now());
  }

  /**
   * 429 RATE_LIMITED past 5 account mails per address in 15 minutes. Keyed by the typed address,
   * counted before anyone knows whether it has an account, so the 429 tells nothing either.
   */
  countAccountMail(email: string): Promise<void> {
    return this.countOrRefuse(`address:account-mail:${accountKey(email)}`, SIGN_IN_LIMITS.accountMailsPerAddress, SIGN_IN_LIMITS.accountMailsWindowMs);
  }

  /**
   * A recovery code tried for an address without an account: counts down like a real code's 5
   * attempts (ADR 0009 "same answer" for unknown e-mails). Returns the attempts left, and past them
   * that the "code" is spent and when the count starts again, as a real code answers (ADR 0008 `OTP_SPENT`).
   */
  async recordUnknownAddressCodeAttempt(
    email: string,
    maxAttempts: number,
    windowMs: number,
  ): Promise<{ spent: false; attemptsLeft: number } | { spent: true; retryAfterSeconds: number }> {
    const now = this.clock.now();
    const tries = await this.store.increment(`failures:unknown-code:${accountKey(email)}`, windowMs, now);
    if (tries.count > maxAttempts) return { spent: true, retryAfterSeconds: Math.max(1, Math.ceil((tries.resetAt.getTime() - now.getTime()) / 1000)) };
    return { spent: false, attemptsLeft: maxAttempts - tries.count };
  }

  /** A recovery code "sent" to an address without an account: its attempts start again, like a real new code's. */
  async resetUnknownAddressCodeAttempts(email: string): Promise<void> {
    await this.store.clear(`failures:unknown-code:${accountKey(email)}`);
  }

  /** 423 DEVICE_LOCKED or USER_LOCKED while a lock is on; checked before the password is. */
  async assertNotLocked(username: string, deviceId: string): Promise<void> {
    const now = this.clock.now();
    const deviceLock = await this.store.peek(`lock:device:${deviceId}`, now);
    if (deviceLock) throw locked('DEVICE_LOCKED', 'Too many failed sign-ins from this device.', deviceLock.resetAt, now);
    const userLock = await this.store.peek(`lock:account:${accountKey(username)}`, now);
    if (userLock) throw locked('USER_LOCKED', 'This account is locked after too many wrong passwords.', userLock.resetAt, now);
  }

  /**
   * A wrong password: counts for the account and the device; throws the lock the count reaches, else
   * returns the wrong passwords the account may still give before it locks (the sign-in page warns
   * before the last ones, ADR 0008 `attemptsLeft`; keyed like the lock, so an unknown name counts alike).
   */
  async recordPasswordFailure(username: string, deviceId: string): Promise<number> {
    const now = this.clock.now();
    await this.recordDeviceFailure(deviceId);
    const account = accountKey(username);
    const streak = await this.store.increment(`failures:account:${account}`, FAILURE_STREAK_MS, now);
    if (streak.count >= SIGN_IN_LIMITS.passwordFailuresPerAccount) {
      const lock = await this.store.increment(`lock:account:${account}`, SIGN_IN_LIMITS.lockMs, now);
      // The next streak starts from zero once the lock ends.
      await this.store.clear(`failures:account:${account}`);
      this.onLockStarted('account');
      throw locked('USER_LOCKED', 'This account is locked after too many wrong passwords.', lock.resetAt, now);
    }
    return SIGN_IN_LIMITS.passwordFailuresPerAccount - streak.count;
  }

  /**
   * ADR 0008 "A reset ends the lock": a password reset through the mailed passcode proves the person
   * holds the mailbox, so the account's lock and its streak of wrong passwords end with it (the
   * device's own count stays: it is about the browser, not the account).
   */
  async clearAccountLock(username: string): Promise<void> {
    const account = accountKey(username);
    await this.store.clear(`lock:account:${account}`);
    await this.store.clear(`failures:account:${account}`);
  }

  /** A wrong, used or expired passcode: counts for the device only (the code has its own 5 attempts). */
  async recordDeviceFailure(deviceId: string): Promise<void> {
    const now = this.clock.now();
    const failures = await this.store.increment(`failures:device:${deviceId}`, SIGN_IN_LIMITS.failuresPerDeviceWindowMs, now);
    if (failures.count >= SIGN_IN_LIMITS.failuresPerDevice) {
      const lock = await this.store.increment(`lock:device:${deviceId}`, SIGN_IN_LIMITS.lockMs, now);
      await this.store.clear(`failures:device:${deviceId}`);
      this.onLockStarted('device');
      throw locked('DEVICE_LOCKED', 'Too many failed sign-ins from this device.', lock.resetAt, now);
    }
  }

  /** Authenticator codes the account may still try in the current window. */
  async totpAttemptsLeft(userId: string): Promise<number> {
    const failures = await this.store.peek(`failures:totp:${userId}`, this.clock.now());
    return Math.max(0, SIGN_IN_LIMITS.totpAttemptsPerAccount - (failures?.count ?? 0));
  }

  /** A wrong authenticator code; returns the attempts left. */
  async recordTotpFailure(userId: string): Promise<number> {
    const failures = await this.store.increment(`failures:totp:${userId}`, SIGN_IN_LIMITS.totpAttemptsWindowMs, this.clock.now());
    return Math.max(0, SIGN_IN_LIMITS.totpAttemptsPerAccount - failures.count);
  }

  async clearTotpFailures(userId: string): Promise<void> {
    await this.store.clear(`failures:totp:${userId}`);
  }

  /** A right password ends the account's streak of failures. */
  async recordPasswordSuccess(username: string): Promise<void> {
    await this.store.clear(`failures:account:${accountKey(username)}`);
  }

  private async countOrRefuse(key: string, limit: number, windowMs: number): Promise<void> {
    const now = this.clock.now();
    const counter = await this.store.increment(key, windowMs, now);
    if (counter.count > limit) throw rateLimited(counter.resetAt, now);
  }
}

function rateLimited(until: Date, now: Date): HttpError {
  return new HttpError(429, 'RATE_LIMITED', 'Too many requests; try again later.', undefined, { retryAfterSeconds: secondsUntil(until, now) });
}

function accountKey(username: string): string {
  return createHash('sha256').update(username.trim().toLowerCase()).digest('hex');
}

/** 423 with Retry-After and `lockedUntil` (ISO 8601), so the sign-in page can say when the lock ends in its own locale. */
function locked(code: 'USER_LOCKED' | 'DEVICE_LOCKED', message: string, until: Date, now: Date): HttpError {
  return new HttpError(423, code, message, undefined, { retryAfterSeconds: secondsUntil(until, now), extras: { lockedUntil: until.toISOString() } });
}

function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}
