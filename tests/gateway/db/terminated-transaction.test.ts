import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../gateway/db/database';
import { isDatabaseConnectionError } from '../../../gateway/db/database-outage';
import { openPostgres } from '../../../gateway/db/open-postgres';

/**
 * README "Fault drill": PostgreSQL ends the connection of a transaction while the gateway is between two of its
 * queries (hashing a password, fingerprinting a card; here every backend terminated, as the drill does). pg reports
 * that as an 'error' event on the checked-out client, which no one heard: the whole gateway process crashed. The
 * transaction must fail as an outage (503, README "Database outage") and the pool go on with a fresh connection.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

describe.skipIf(TEST_DATABASE_URL === undefined)('a transaction whose connection PostgreSQL terminates between two queries', () => {
  let db: Database;
  let admin: pg.Client;
  beforeEach(async () => {
    db = await openPostgres({ connectionString: TEST_DATABASE_URL ?? '' });
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  afterEach(async () => {
    await db.close();
    await admin.end();
  });

  it('fails as a database outage, does not crash the process, and the next query runs on a fresh connection', async () => {
    const outcome = db.transaction(async (tx) => {
      const [row] = (await tx.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
      await admin.query('select pg_terminate_backend($1)', [row?.pid]);
      // Work that is not a query (an argon2 hash): the termination arrives while the client has no query running.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.query('select 1');
    });
    const error = await outcome.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isDatabaseConnectionError(error)).toBe(true);
    expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
