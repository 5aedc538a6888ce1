import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { CounterStoreUnavailableError, type Counter, type CounterStore } from './counter-store';

/**
 * One atomic step per hit, so instances racing on one key never lose a count. The window's end
 * is stored from the gateway's clock (ARGV[1]); PEXPIRE only tidies Redis up afterwards.
 */
const INCREMENT_SCRIPT = `
local resetAt = tonumber(redis.call('HGET', KEYS[1], 'resetAt'))
local now = tonumber(ARGV[1])
if resetAt == nil or resetAt <= now then
  resetAt = now + tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'count', 1, 'resetAt', resetAt)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, resetAt}
end
return {redis.call('HINCRBY', KEYS[1], 'count', 1), resetAt}
`;

/** The longest a counter call waits for Redis, connecting included, before the call is refused. */
export const REDIS_TIMEOUT_MS = 1_000;

export interface RedisCounterStoreOptions {
  /** Where the one line per outage goes ("counter store unreachable", then "reachable again"). */
  logger?: Pick<FastifyBaseLogger, 'error' | 'info'>;
  timeoutMs?: number;
}

/**
 * Counters shared by every gateway instance (ADR 0008 "Limits": REDIS_URL set). While Redis cannot
 * answer, every call fails closed with CounterStoreUnavailableError (ADR 0008 "Counter store
 * unreachable") within `timeoutMs`, and the outage is logged once, without keys or arguments.
 */
export class RedisCounterStore implements CounterStore {
  readonly kind = 'redis';
  private readonly redis: Redis;
  private readonly logger: RedisCounterStoreOptions['logger'];
  private reachable = true;

  /** `keyPrefix` keeps these keys apart from anything else in the same Redis (and tests apart from each other). */
  constructor(
    url: string,
    private readonly keyPrefix = 'gateway:limits:',
    options: RedisCounterStoreOptions = {},
  ) {
    const timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS;
    this.logger = options.logger;
    // Fail a request quickly rather than retry it for long while Redis is away; reconnecting goes on in the background.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: timeoutMs, commandTimeout: timeoutMs });
    // Without a listener ioredis prints every failed reconnection; the outage is logged once instead.
    this.redis.on('error', (error: Error & { code?: string }) => this.markUnreachable(error));
    this.redis.on('ready', () => this.markReachable());
  }

  async increment(key: string, windowMs: number, now: Date): Promise<Counter> {
    const [count, resetAt] = (await this.run(() => this.redis.eval(INCREMENT_SCRIPT, 1, this.keyPrefix + key, now.getTime(), windowMs))) as [number, number];
    return { count, resetAt: new Date(resetAt) };
  }

  async peek(key: string, now: Date): Promise<Counter | null> {
    const [count, resetAt] = await this.run(() => this.redis.hmget(this.keyPrefix + key, 'count', 'resetAt'));
    if (count === null || resetAt === null || Number(resetAt) <= now.getTime()) return null;
    return { count: Number(count), resetAt: new Date(Number(resetAt)) };
  }

  async clear(key: string): Promise<void> {
    await this.run(() => this.redis.del(this.keyPrefix + key));
  }

  async ping(): Promise<void> {
    await this.run(() => this.redis.ping());
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      const result = await command();
      this.markReachable();
      return result;
    } catch (error) {
      this.markUnreachable(error as Error & { code?: string });
      throw new CounterStoreUnavailableError();
    }
  }

  private markUnreachable(error: Error & { code?: string }): void {
    if (!this.reachable) return;
    this.reachable = false;
    // The code and the message only: a command error would also carry the key, which names an account or an address.
    this.logger?.error(
      { counterStore: 'redis', code: error.code, reason: error.message },
      'counter store unreachable: sign-in limits refuse calls (503) until it answers',
    );
  }

  private markReachable(): void {
    if (this.reachable) return;
    this.reachable = true;
    this.logger?.info({ counterStore: 'redis' }, 'counter store reachable again');
  }
}
