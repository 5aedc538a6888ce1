import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../gateway/db/database';
import { migrate } from '../../../gateway/db/migrate';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseConnectionError } from '../../../gateway/db/database-outage';
import { openTestPglite } from '../support/database-legs';
import { openPostgres } from '../../../gateway/db/open-postgres';
import { freePort } from '../../support/free-port';
import { capturingLogger } from '../support/capturing-logger';
import { buildTestGateway, withXsrf } from '../support/test-gateway';

/**
 * README "Database outage": while the database cannot be reached, a call that needs it answers 503
 * SERVICE_UNAVAILABLE with Retry-After (the app counts it down), not 500 INTERNAL_ERROR, and the outage is
 * logged once when it starts and once when it ends, not with a stack trace per request.
 */
const pgError = (code: string, message = `failed with ${code}`) => Object.assign(new Error(message), { code });

describe('isDatabaseConnectionError', () => {
  it.each([
    ['a refused connection', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', pgError('ECONNRESET', 'read ECONNRESET')],
    ['57P01 admin shutdown', pgError('57P01', 'terminating connection due to administrator command')],
    ['57P03 cannot connect now', pgError('57P03', 'the database system is starting up')],
    ['08006 connection failure', pgError('08006')],
    ['08001 unable to connect', pgError('08001')],
    ['the pool waiting out its connection timeout', new Error('timeout exceeded when trying to connect')],
    ['a connection that dropped', new Error('Connection terminated unexpectedly')],
    ['a timeout wrapped by the pool', new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') })],
  ])('%s is an outage', (_name, error) => {
    expect(isDatabaseConnectionError(error)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', pgError('42601')],
    ['a plain error', new Error('something else')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not', (_name, error) => {
    expect(isDatabaseConnectionError(error)).toBe(false);
  });
});

/** The database a call reaches: a PostgreSQL pool on a port where nothing listens (every query ECONNREFUSED), or a working one. */
let current: Database;
const switching: Database = {
  kind: 'postgres',
  query: (sql, params) => current.query(sql, params),
  exec: (sql) => current.exec(sql),
  transaction: (work) => current.transaction(work),
  close: async () => undefined,
};

describe('a call while the database cannot be reached', () => {
  let unreachable: Database;
  let working: Database;
  let app: FastifyInstance;
  let lines: string[];
  beforeEach(async () => {
    unreachable = await openPostgres({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/none` });
    working = await openTestPglite();
    await migrate(working);
    current = unreachable;
    const captured = capturingLogger();
    lines = captured.lines;
    app = await buildTestGateway({ db: switching, logger: captured.logger });
  });
  afterEach(async () => {
    await app.close();
    await unreachable.close();
    await working.close();
  });

  const activate = () =>
    app.inject({ method: 'POST', url: '/api/user-mgmt/user/activate-token', headers: withXsrf(), payload: { token: 'A'.repeat(43), password: 'Any#Pass1' } });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, logged once when it starts and once when it ends', async () => {
    for (let call = 0; call < 3; call += 1) {
      const answer = await activate();
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(answer.json()).toEqual({ error: 'SERVICE_UNAVAILABLE', message: 'This service is unavailable for a moment; try again shortly.' });
    }
    const outage = lines.filter((line) => line.includes('database unreachable'));
    expect(outage).toHaveLength(1);
    expect(JSON.parse(outage[0]!)).toMatchObject({ level: 50, code: 'ECONNREFUSED' });
    // No stack trace per request: no line carries an error object, and none is the 500's.
    expect(lines.filter((line) => line.includes('"stack"') || line.includes('unexpected error'))).toEqual([]);

    current = working;
    const after = await activate();
    expect(after.statusCode).toBe(400);
    expect(after.json()).toMatchObject({ error: 'TOKEN_INVALID' });
    expect(lines.filter((line) => line.includes('database reachable again'))).toHaveLength(1);
  });
});
