import { Redis } from 'ioredis';
import type { Counter, CounterStore } from './counter-store';


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

/** Counters shared by every gateway instance (ADR 0008 "Limits": REDIS_URL set). */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;

  /** `keyPrefix` keeps these keys apart from anything else in the same Redis (and tests apart from each other). */
  constructor(
    url: string,
    private readonly keyPrefix = 'gateway:limits:',
  ) {
    // Fail a request quickly rather than retry it for long while Redis is away.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1 });
  }

  async increment(key: string, windowMs: number, now: Date): Promise<Counter> {
    const [count, resetAt] = (await this.redis.eval(INCREMENT_SCRIPT, 1, this.keyPrefix + key, now.getTime(), windowMs)) as [number, number];
    return { count, resetAt: new Date(resetAt) };
  }

  async peek(key: string, now: Date): Promise<Counter | null> {
    const [count, resetAt] = await this.redis.hmget(this.keyPrefix + key, 'count', 'resetAt');
    if (count === null || resetAt === null || Number(resetAt) <= now.getTime()) return null;
    return { count: Number(count), resetAt: new Date(Number(resetAt)) };
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.keyPrefix + key);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
