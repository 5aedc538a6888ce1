import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../gateway/db/database';
import { migrate } from '../../../gateway/db/migrate';
import { openTestPglite } from '../support/database-legs';
import { API_BASES, buildTestGateway } from '../support/test-gateway';

let db: Database;
let app: FastifyInstance;
beforeAll(async () => {
  db = await openTestPglite();
  // As the start does before it builds the gateway (gateway/main.ts): the gateway reads its key rings at build.
  await migrate(db);
  app = await buildTestGateway({ db });
});
afterAll(() => app.close());

describe.each(API_BASES)('GET %s/health', (base) => {
  it('answers ok with the database kind once the database answers', async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/health` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'pglite' });
  });
});

it('answers 503 JSON when the database is down', async () => {
  await db.close();
  const response = await app.inject({ method: 'GET', url: '/api/health' });
  expect(response.statusCode).toBe(503);
  expect(response.json()).toEqual({ error: 'DATABASE_UNAVAILABLE', message: 'The database does not answer.' });
});
