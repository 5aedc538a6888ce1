import { HttpError } from '../http/errors';

/**
 * Where the abuse counters of ADR 0008 "Limits" live: in Redis when REDIS_URL is set (shared by
 * every gateway instance), in this process otherwise. A counter is a fixed window that opens at
 * its first hit; windows are measured on the gateway's clock (passed in as `now`), not on the
 * store's, so the test clock moves them too.
 */
export interface Counter {
  count: number;
  /** When the window closes and the count starts again from zero. */
  resetAt: Date;
}

export interface CounterStore {
  /** Where the counters live: readiness checks a shared store (README "Health and readiness"), not this process's own. */
  readonly kind: 'redis' | 'in-process';
  /** Resolves when the store answers; a store that cannot be reached throws CounterStoreUnavailableError. */
  ping(): Promise<void>;
  /** Adds one to `key`, opening a window of `windowMs` when none is open. */
  increment(key: string, windowMs: number, now: Date): Promise<Counter>;
  /** The open window of `key`, or null when there is none. */
  peek(key: string, now: Date): Promise<Counter | null>;
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

/** How long a caller is told to wait when the counters cannot be reached (ADR 0008 "Counter store unreachable"). */
export const COUNTER_STORE_RETRY_AFTER_SECONDS = 30;

/**
 * ADR 0008 "Counter store unreachable": a limit that cannot be counted refuses the call (fail
 * closed), so an outage never lifts a lockout. 503 SERVICE_UNAVAILABLE with Retry-After.
 */
export class CounterStoreUnavailableError extends HttpError {
  constructor() {
    super(503, 'SERVICE_UNAVAILABLE', 'This service is unavailable for a moment; try again shortly.', undefined, {
      retryAfterSeconds: COUNTER_STORE_RETRY_AFTER_SECONDS,
    });
  }
}
