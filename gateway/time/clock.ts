/**
 * The gateway's one source of "now" (ADR 0008 "Test clock"): sessions, one-time codes, lockouts,
 * rate-limit windows, trusted devices and token expiry all read it, so a test moves time for all
 * of them at once instead of sleeping. Production never moves it: the route that does
 * (`POST test-support/clock`) exists only in test mode.
 */
export interface Clock {
  now(): Date;
}

/** System time plus an offset that only ever grows (time does not run backwards for a lockout). */
export class AdjustableClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(seconds: number): Date {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('A clock only moves forward');
    this.offsetMs += seconds * 1000;
    return this.now();
  }
}
