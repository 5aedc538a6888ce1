import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisCounterStore } from '../../../gateway/limits/redis-counter-store';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * ADR 0008 "Limits": with REDIS_URL set, the counters are shared by every gateway
 * instance, so a lock earned on one instance holds on the other. Two gateways on one database,
 * each with its own Redis connection. Skipped, with the reason, when no Redis is configured.
 */
const REDIS_URL = process.env.TEST_REDIS_URL || process.env.REDIS_URL || undefined;
const SKIP_REASON = 'Redis leg skipped: TEST_REDIS_URL not set (e.g. redis://127.0.0.1:6379)';
if (REDIS_URL === undefined) console.warn(SKIP_REASON);
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };

describe.skipIf(REDIS_URL === undefined)(REDIS_URL === undefined ? SKIP_REASON : 'two gateway instances sharing Redis', () => {
  describeEachDatabase((leg) => {
    let first: SignInGateway;
    let second: SignInGateway;
    const stores: RedisCounterStore[] = [];
    beforeEach(async () => {
      const prefix = `test:${randomUUID()}:`;
      const store = () => {
        const opened = new RedisCounterStore(REDIS_URL ?? '', prefix);
        stores.push(opened);
        return opened;
      };
      first = await openSignInGateway(leg, { counters: store() });
      await insertUser(first.test.db, LUKAS);
      // The second instance reads the first one's database (a PostgreSQL server; PGlite: the same engine).
      const firstData = async () => ({ ...first.test, db: await first.test.openSecondInstance(), dispose: async () => undefined });
      second = await openSignInGateway({ name: leg.name, open: firstData, openMigrated: firstData }, { counters: store() });
    });
    afterEach(async () => {
      await second.app.close();
      await first.dispose();
      await Promise.all(stores.splice(0).map((store) => store.close()));
    });

    it('USER_LOCKED earned on one instance answers on the other', async () => {
      const onFirst = await new TestBrowser(first.app).open();
      for (let attempt = 1; attempt <= 5; attempt += 1) await onFirst.login({ username: LUKAS.email, password: 'wrong', siteId: 'eurobank' });
      const onSecond = await new TestBrowser(second.app, '198.51.100.99').open();
      const answer = await onSecond.login({ username: LUKAS.email, password: LUKAS.password, siteId: 'eurobank' });
      expect(answer.statusCode).toBe(423);
      expect(answer.json().error).toBe('USER_LOCKED');
    });
  });
});
