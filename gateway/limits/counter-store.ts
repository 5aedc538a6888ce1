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
  /** Adds one to `key`, opening a window of `windowMs` when none is open. */
  increment(key: string, windowMs: number, now: Date): Promise<Counter>;
  /** The open window of `key`, or null when there is none. */
  peek(key: string, now: Date): Promise<Counter | null>;
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}
