import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { CounterStore } from '../../../gateway/limits/counter-store';
import { MemoryCounterStore } from '../../../gateway/limits/memory-counter-store';
import { RedisCounterStore } from '../../../gateway/limits/redis-counter-store';
import { SignInLimits, SIGN_IN_LIMITS } from '../../../gateway/limits/sign-in-limits';
import { AdjustableClock } from '../../../gateway/time/clock';

/**
 * ADR 0008 "Limits": the counters behave the same in process and in Redis (shared by instances).
 * The Redis leg runs when TEST_REDIS_URL (or REDIS_URL) is set, and is shown skipped with the reason otherwise.
 */
const REDIS_URL = process.env.TEST_REDIS_URL || process.env.REDIS_URL || undefined;
const REDIS_SKIP_REASON = 'Redis leg skipped: TEST_REDIS_URL not set (e.g. redis://127.0.0.1:6379)';
if (REDIS_URL === undefined) console.warn(REDIS_SKIP_REASON);

const opened: CounterStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
});

const legs: { name: string; skip: boolean; open: (prefix: string) => CounterStore }[] = [
  { name: 'in process', skip: false, open: () => new MemoryCounterStore() },
  {
    name: REDIS_URL === undefined ? REDIS_SKIP_REASON : 'Redis',
    skip: REDIS_URL === undefined,
    open: (prefix) => new RedisCounterStore(REDIS_URL ?? '', prefix),
  },
];

for (const leg of legs) {
  describe.skipIf(leg.skip)(leg.name, () => {
    const store = (prefix = `test:${randomUUID()}:`) => {
      const opening = leg.open(prefix);
      opened.push(opening);
      return opening;
    };

    it('counts hits in a window that opens at the first hit and closes on the gateway clock', async () => {
      const counters = store();
      const start = new Date('2030-01-01T00:00:00Z');
      expect(await counters.peek('k', start)).toBeNull();
      expect(await counters.increment('k', 60_000, start)).toEqual({ count: 1, resetAt: new Date('2030-01-01T00:01:00Z') });
      expect(await counters.increment('k', 60_000, new Date('2030-01-01T00:00:30Z'))).toEqual({ count: 2, resetAt: new Date('2030-01-01T00:01:00Z') });
      expect(await counters.peek('k', new Date('2030-01-01T00:00:59Z'))).toEqual({ count: 2, resetAt: new Date('2030-01-01T00:01:00Z') });
      // The window closed: peek sees nothing and the next hit starts again at 1.
      expect(await counters.peek('k', new Date('2030-01-01T00:01:00Z'))).toBeNull();
      expect((await counters.increment('k', 60_000, new Date('2030-01-01T00:01:00Z'))).count).toBe(1);
      await counters.clear('k');
      expect(await counters.peek('k', new Date('2030-01-01T00:01:01Z'))).toBeNull();
    });

    it('never loses a hit when many arrive at once', async () => {
      const counters = store();
      const now = new Date();
      await Promise.all(Array.from({ length: 50 }, () => counters.increment('burst', 60_000, now)));
      expect((await counters.peek('burst', now))?.count).toBe(50);
    });

    it('two gateway instances sharing the store share the counts (Redis), so a lock holds on both', async () => {
      const prefix = `test:${randomUUID()}:`;
      const shared = store(prefix);
      // In process, "two instances" can only mean one store; in Redis each instance has its own connection.
      const first = new SignInLimits(shared, new AdjustableClock());
      const second = new SignInLimits(leg.open === legs[0]?.open ? shared : store(prefix), new AdjustableClock());
      for (let attempt = 1; attempt < SIGN_IN_LIMITS.passwordFailuresPerAccount; attempt += 1) {
        await (attempt % 2 === 0 ? first : second).recordPasswordFailure('emily@example.com', 'device-a');
      }
      await expect(first.recordPasswordFailure('emily@example.com', 'device-a')).rejects.toMatchObject({ statusCode: 423, code: 'USER_LOCKED' });
      await expect(second.assertNotLocked('EMILY@example.com', 'device-b')).rejects.toMatchObject({ code: 'USER_LOCKED', details: { retryAfterSeconds: 900 } });
    });

    it('429 RATE_LIMITED past the per-IP limit, with the seconds to wait', async () => {
      const clock = new AdjustableClock();
      const limits = new SignInLimits(store(), clock);
      for (let call = 1; call <= SIGN_IN_LIMITS.signInCallsPerIp; call += 1) await limits.countSignInCall('203.0.113.1');
      clock.advance(60);
      await expect(limits.countSignInCall('203.0.113.1')).rejects.toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', details: { retryAfterSeconds: 240 } });
      await limits.countSignInCall('203.0.113.2');
      clock.advance(240);
      await limits.countSignInCall('203.0.113.1');
    });
  });
}
