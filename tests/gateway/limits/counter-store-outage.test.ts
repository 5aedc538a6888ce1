import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CounterStoreUnavailableError } from '../../../gateway/limits/counter-store';
import { RedisCounterStore } from '../../../gateway/limits/redis-counter-store';
import { ANA_PASSWORD, register, registrationBody } from '../support/account-requests';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * docs/decisions/0008-sign-in-api.md "Counter store unreachable": with Redis away every limited call
 * fails closed, quickly, as 503 SERVICE_UNAVAILABLE with Retry-After, never a 500 and never a pass;
 * the outage is one log line with no key, address or password. Redis here is a port nothing listens
 * on, found at run time.
 */
const TIMEOUT_MS = 500;
/** However the connection fails, no call may wait much longer than the store's timeout. */
const QUICKLY_MS = 3_000;

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

const unreachableLines = (lines: string[]) => lines.filter((line) => line.includes('counter store unreachable'));

describe('RedisCounterStore with nothing listening', () => {
  let store: RedisCounterStore;
  let lines: string[];
  beforeEach(async () => {
    const log = capturingLogger();
    lines = log.lines;
    store = new RedisCounterStore(`redis://127.0.0.1:${await unusedPort()}`, 'test:outage:', { logger: log.logger, timeoutMs: TIMEOUT_MS });
  });
  afterEach(() => store.close());

  it('refuses increment, peek and clear with CounterStoreUnavailableError (503, Retry-After) within the timeout', async () => {
    for (const call of [() => store.increment('user:x', 60_000, new Date()), () => store.peek('user:x', new Date()), () => store.clear('user:x')]) {
      const { result, ms } = await timed(() =>
        call().then(
          () => null,
          (error: unknown) => error,
        ),
      );
      expect(result).toBeInstanceOf(CounterStoreUnavailableError);
      expect(result).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', details: { retryAfterSeconds: 30 } });
      expect(ms).toBeLessThan(QUICKLY_MS);
    }
  });

  it('logs the outage once, naming no key', async () => {
    for (let attempt = 0; attempt < 5; attempt++) await store.increment('user:secret-key-name', 60_000, new Date()).catch(() => undefined);
    expect(unreachableLines(lines)).toHaveLength(1);
    expect(JSON.parse(unreachableLines(lines)[0]!)).toMatchObject({ level: 50, counterStore: 'redis' });
    expect(lines.join('\n')).not.toContain('secret-key-name');
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL || process.env.REDIS_URL || undefined;
describe.skipIf(REDIS_URL === undefined)('RedisCounterStore when Redis comes back (TEST_REDIS_URL)', () => {
  it('counts again once Redis answers on its port, and says so in one line', async () => {
    const target = new URL(REDIS_URL ?? '');
    const port = await unusedPort();
    const log = capturingLogger();
    const store = new RedisCounterStore(`redis://127.0.0.1:${port}`, `test:outage:${port}:`, { logger: log.logger, timeoutMs: TIMEOUT_MS });
    // Redis "comes back": a plain TCP relay to the real server starts listening on the dead port.
    const relay = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end);
      upstream.on('error', end);
    });
    try {
      await expect(store.increment('k', 60_000, new Date())).rejects.toBeInstanceOf(CounterStoreUnavailableError);
      await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
      await expect
        .poll(
          () =>
            store.increment('k', 60_000, new Date()).then(
              (counter) => counter.count,
              () => 0,
            ),
          { timeout: 15_000, interval: 250 },
        )
        .toBeGreaterThan(0);
      expect(unreachableLines(log.lines)).toHaveLength(1);
      expect(log.lines.filter((line) => line.includes('counter store reachable again'))).toHaveLength(1);
      await store.clear('k');
    } finally {
      await store.close();
      relay.close();
    }
  }, 30_000);
});

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let store: RedisCounterStore;
  let lines: string[];
  beforeEach(async () => {
    const log = capturingLogger();
    lines = log.lines;
    store = new RedisCounterStore(`redis://127.0.0.1:${await unusedPort()}`, 'test:outage:', { logger: log.logger, timeoutMs: TIMEOUT_MS });
    gateway = await openSignInGateway(leg, { logger: log.logger, counters: store });
    await insertUser(gateway.test.db, { email: 'emily@example.com', password: ANA_PASSWORD, siteId: 'firstbank' });
  });
  afterEach(async () => {
    await gateway.dispose();
    await store.close();
  });

  it('sign-in, a wrong password, registration and a recovery code check answer 503 SERVICE_UNAVAILABLE with Retry-After, quickly; nothing is saved', async () => {
    const browser = await new TestBrowser(gateway.app).open();
    const calls = [
      () => browser.login({ username: 'emily@example.com', password: ANA_PASSWORD, siteId: 'firstbank' }),
      () => browser.login({ username: 'emily@example.com', password: 'Wrong#Pass1', siteId: 'firstbank' }),
      () => register(browser, registrationBody()),
      () => browser.call({ method: 'POST', url: 'user-mgmt/user/find-code', json: { email: 'emily@example.com', passcode: '123456' } }),
    ];
    for (const call of calls) {
      const { result: response, ms } = await timed(call);
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toMatchObject({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
      expect(response.headers['retry-after']).toBe('30');
      expect(response.headers['x-cid']).toBeTruthy();
      expect(ms).toBeLessThan(QUICKLY_MS);
    }
    expect(browser.cookies.has('SESSION')).toBe(false);
    const saved = await gateway.test.db.query<{ sessions: number; jobs: number; users: number }>(
      'select (select count(*)::int from sessions) as sessions, (select count(*)::int from account_jobs) as jobs, (select count(*)::int from users) as users',
    );
    expect(saved.rows[0]).toEqual({ sessions: 0, jobs: 0, users: 1 });

    expect(unreachableLines(lines)).toHaveLength(1);
    expect(lines.filter((line) => line.includes('"unexpected error"'))).toEqual([]);
    const log = lines.join('\n');
    for (const secret of ['emily@example.com', 'ana@example.com', ANA_PASSWORD, 'Wrong#Pass1']) expect(log).not.toContain(secret);
  });
});
