import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../gateway/db/database';
import { migrate } from '../../../gateway/db/migrate';
import { openTestPglite } from '../support/database-legs';
import { RedisCounterStore } from '../../../gateway/limits/redis-counter-store';
import { buildGateway } from '../../../gateway/server';
import { freePort } from '../../support/free-port';
import { API_BASES, realFixtures } from '../support/test-gateway';

/**
 * README "Health and readiness": liveness says the process answers; readiness says whether this instance
 * should get traffic (the database answers, Redis answers when configured, not shutting down), naming each
 * check and nothing more (docs/decisions/0017-threat-model.md "Health and readiness").
 */
let app: FastifyInstance | undefined;
let db: Database | undefined;
let counters: RedisCounterStore | undefined;
afterEach(async () => {
  await app?.close();
  await counters?.close();
  await db?.close().catch(() => undefined);
  app = db = counters = undefined;
});

async function gateway(options: { redis?: boolean } = {}): Promise<FastifyInstance> {
  db = await openTestPglite();
  // As the start does before it builds the gateway (gateway/main.ts): the gateway reads its key rings at build.
  await migrate(db);
  // Nothing listens on a free port: every Redis command fails, as with Redis down.
  if (options.redis) counters = new RedisCounterStore(`redis://127.0.0.1:${await freePort()}`, 'readiness-test:', { timeoutMs: 200 });
  app = await buildGateway({ db, fixtures: await realFixtures(), testMode: true, ...(counters ? { auth: { counters } } : {}) });
  return app;
}

describe.each(API_BASES)('%s/health/live and health/ready', (base) => {
  it('answer 200 with each check named when everything answers', async () => {
    const gatewayApp = await gateway();
    const live = await gatewayApp.inject({ method: 'GET', url: `${base}/health/live` });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'live' });
    const ready = await gatewayApp.inject({ method: 'GET', url: `${base}/health/ready` });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    // In-process counters cannot be away: no redis check without REDIS_URL.
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', shutdown: 'no' } });
  }, 60_000);
});

it('with Redis down: not ready (503 NOT_READY naming redis), still live, and the answer holds no error text or address', async () => {
  const gatewayApp = await gateway({ redis: true });
  const ready = await gatewayApp.inject({ method: 'GET', url: '/api/health/ready' });
  expect(ready.statusCode).toBe(503);
  expect(ready.json()).toEqual({
    error: 'NOT_READY',
    message: 'Not ready: redis unavailable.',
    checks: { database: 'ok', redis: 'unavailable', shutdown: 'no' },
  });
  expect(ready.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|redis:\/\//);
  expect((await gatewayApp.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
}, 60_000);

it('docs/decisions/0017-threat-model.md "Health and readiness": 20 probes at once cost the database one query', async () => {
  const gatewayApp = await gateway();
  const opened = db!;
  let probes = 0;
  // The gateway's own database, counting the readiness query (the job poll's queries are not `select 1`).
  const counting: Database = {
    ...opened,
    query: (sql, params) => {
      if (sql === 'select 1') probes += 1;
      return opened.query(sql, params);
    },
  };
  await gatewayApp.close();
  app = await buildGateway({ db: counting, fixtures: await realFixtures(), testMode: true });
  const answers = await Promise.all(Array.from({ length: 20 }, () => app!.inject({ method: 'GET', url: '/api/health/ready' })));
  expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
  expect(probes).toBe(1);
}, 60_000);

it('with the database down: not ready, naming the database', async () => {
  const gatewayApp = await gateway();
  await db!.close();
  const ready = await gatewayApp.inject({ method: 'GET', url: '/api/health/ready' });
  expect(ready.statusCode).toBe(503);
  expect(ready.json()).toMatchObject({ error: 'NOT_READY', checks: { database: 'unavailable', shutdown: 'no' } });
}, 60_000);

it('README "Stopping": once closing begins, a readiness probe on a connection still open answers 503 in the error shape and closes it', async () => {
  const gatewayApp = await gateway();
  await gatewayApp.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gatewayApp.server.address() as { port: number };
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // A probe under way when SIGTERM comes: its request line is in, its headers not yet complete.
  socket.write('GET /api/health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closing = gatewayApp.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.write('\r\n');
  await ended;
  await closing;
  app = undefined;
  const [head = '', body = ''] = received.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 503 /);
  expect(head.toLowerCase()).toContain('connection: close');
  expect(JSON.parse(body)).toEqual({
    error: 'NOT_READY',
    message: 'Not ready: shutting down.',
    checks: { database: 'ok', shutdown: 'in-progress' },
  });
}, 60_000);
