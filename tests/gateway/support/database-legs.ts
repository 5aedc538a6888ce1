import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { Database } from '../../../gateway/db/database';
import { openPglite } from '../../../gateway/db/open-pglite';
import { openPostgres } from '../../../gateway/db/open-postgres';

/**
 * DB tests run on both databases the gateway supports (DESIGN "The real parts"): the embedded
 * PGlite always, PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) points at a server. Each
 * test gets a fresh schema, dropped afterwards; on PGlite the schemas share one in-memory
 * instance per test file, since starting PGlite costs a second or more.
 */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
const SKIP_REASON = 'PostgreSQL leg skipped: TEST_DATABASE_URL not set';

export interface TestDatabase {
  db: Database;
  /** Another connection to the same data, as a second gateway instance would have (PGlite: the same one). */
  openSecondInstance(): Promise<Database>;
  dispose(): Promise<void>;
}

export interface DatabaseLeg {
  name: string;
  open(): Promise<TestDatabase>;
}

let initialData: Promise<Blob | undefined> | undefined;
/**
 * An in-memory PGlite started from the empty data dir the gateway project's global setup dumped
 * (tests/support/gateway-build-setup.ts), so no test file pays for initdb; a cold start where no dump was provided.
 */
export async function openTestPglite(): Promise<Database> {
  initialData ??= (async () => {
    const file = inject('pgliteInitialData') as string | undefined;
    return file === undefined ? undefined : new Blob([await readFile(file)]);
  })();
  return openPglite(undefined, await initialData);
}

const freshSchemaName = () => `gateway_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

let sharedPglite: Promise<Database> | undefined;
const pgliteLeg: DatabaseLeg = {
  name: 'PGlite (embedded, in memory)',
  open: async () => {
    const engine = await (sharedPglite ??= openTestPglite());
    const schema = freshSchemaName();
    // PGlite has one connection, so the search_path set here holds until the next test sets its own.
    await engine.exec(`create schema ${schema}; set search_path to ${schema}`);
    const db: Database = { ...engine, close: async () => undefined };
    return { db, openSecondInstance: async () => db, dispose: () => engine.exec(`drop schema ${schema} cascade; set search_path to public`) };
  },
};

const postgresLeg = (url: string): DatabaseLeg => ({
  name: 'PostgreSQL',
  open: async () => {
    const schema = freshSchemaName();
    const db = await openPostgres({ connectionString: url, schema });
    const others: Database[] = [];
    return {
      db,
      openSecondInstance: async () => {
        const other = await openPostgres({ connectionString: url, schema });
        others.push(other);
        return other;
      },
      dispose: async () => {
        await Promise.all(others.map((other) => other.close()));
        await db.query(`drop schema ${schema} cascade`);
        await db.close();
      },
    };
  },
});

let warned = false;

/** Declares `suite` once per database leg; the PostgreSQL leg shows as skipped, with the reason, when no server is configured. */
export function describeEachDatabase(suite: (leg: DatabaseLeg) => void): void {
  // Starting PGlite takes seconds when many test files run at once: do it once, with room, before any test's hooks.
  beforeAll(async () => {
    await (sharedPglite ??= openTestPglite());
  }, 60_000);
  afterAll(async () => {
    await (await sharedPglite)?.close();
    sharedPglite = undefined;
  });
  describe(pgliteLeg.name, () => suite(pgliteLeg));
  if (POSTGRES_URL === undefined && !warned) {
    warned = true;
    console.warn(`${SKIP_REASON} (set it to e.g. postgres://postgres@127.0.0.1:5432/test to run it)`);
  }
  const leg = POSTGRES_URL === undefined ? { name: SKIP_REASON, open: () => Promise.reject(new Error(SKIP_REASON)) } : postgresLeg(POSTGRES_URL);
  describe.skipIf(POSTGRES_URL === undefined)(leg.name, () => suite(leg));
}
