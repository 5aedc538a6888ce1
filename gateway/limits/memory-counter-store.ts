import type { Counter, CounterStore } from './counter-store';

/** Beyond this many keys, closed windows are swept out on the next increment. */
const SWEEP_ABOVE_KEYS = 10_000;

/** Counters in this process: right for one gateway instance (ADR 0008 "Limits"). */
export class MemoryCounterStore implements CounterStore {
  readonly kind = 'in-process';
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async ping(): Promise<void> {
    // This process answers whenever it runs.
  }

  async increment(key: string, windowMs: number, now: Date): Promise<Counter> {
    if (this.windows.size > SWEEP_ABOVE_KEYS) this.sweep(now);
    const open = this.open(key, now);
    const window = open ?? { count: 0, resetAt: now.getTime() + windowMs };
    window.count += 1;
    this.windows.set(key, window);
    return { count: window.count, resetAt: new Date(window.resetAt) };
  }

  async peek(key: string, now: Date): Promise<Counter | null> {
    const open = this.open(key, now);
    return open ? { count: open.count, resetAt: new Date(open.resetAt) } : null;
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private open(key: string, now: Date): { count: number; resetAt: number } | undefined {
    const window = this.windows.get(key);
    return window !== undefined && window.resetAt > now.getTime() ? window : undefined;
  }

  private sweep(now: Date): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now.getTime()) this.windows.delete(key);
  }
}
