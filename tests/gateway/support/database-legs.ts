import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { Database, Queryable } from '../../../gateway/db/database';
import { migrate } from '../../../gateway/db/migrate';
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
  /** A fresh, empty schema: for tests of the migrations themselves. */
  open(): Promise<TestDatabase>;
  /**
   * A schema at the latest migration with no rows: the file's one migrated schema, emptied, unless another
   * open test database holds it (then a fresh one, migrated). Migrating a fresh schema for every test was most
   * of a short database test's time.
   */
  openMigrated(): Promise<TestDatabase>;
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
/** The file's migrated PGlite schema, and whether an open test database holds it. */
let pgliteMigrated: { schema: string; held: boolean; seeded: SeededRows } | undefined;
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
  openMigrated: async () => {
    if (pgliteMigrated?.held === true) return migrated(await pgliteLeg.open());
    const engine = await (sharedPglite ??= openTestPglite());
    const db: Database = { ...engine, close: async () => undefined };
    if (pgliteMigrated === undefined) {
      const schema = freshSchemaName();
      await engine.exec(`create schema ${schema}; set search_path to ${schema}`);
      await migrate(db);
      pgliteMigrated = { schema, held: false, seeded: await seededRows(db) };
    } else {
      await engine.exec(`set search_path to ${pgliteMigrated.schema}`);
      await emptyTables(db, pgliteMigrated.seeded);
    }
    const held = pgliteMigrated;
    held.held = true;
    return {
      db,
      openSecondInstance: async () => db,
      dispose: async () => {
        held.held = false;
        await engine.exec('set search_path to public');
      },
    };
  },
};

/** `test` migrated to the latest version. */
async function migrated(test: TestDatabase): Promise<TestDatabase> {
  await migrate(test.db);
  return test;
}

/** The rows the migrations themselves insert (the server key rings' `env` entries, migration 025), by table. */
type SeededRows = ReadonlyMap<string, Record<string, unknown>[]>;

async function seededRows(db: Queryable): Promise<SeededRows> {
  const tables = (
    await db.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = current_schema() and tablename <> 'schema_migrations'`)
  ).rows.map((row) => row.name);
  const seeded = new Map<string, Record<string, unknown>[]>();
  for (const table of tables) {
    const { rows } = await db.query(`select * from ${table}`);
    if (rows.length > 0) seeded.set(table, rows);
  }
  return seeded;
}

/**
 * Deletes every row but the migrations' own record, children before parents (the order read from the
 * catalogue), restarts every sequence and puts back the rows the migrations insert: what a fresh schema
 * at the latest migration holds.
 */
async function emptyTables(db: Queryable, seeded: SeededRows): Promise<void> {
  const tables = (
    await db.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = current_schema() and tablename <> 'schema_migrations'`)
  ).rows.map((row) => row.name);
  const references = (
    await db.query<{ child: string; parent: string }>(
      `select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent from pg_constraint c
         join pg_namespace n on n.oid = c.connamespace where c.contype = 'f' and n.nspname = current_schema()`,
    )
  ).rows;
  const bare = (name: string) => name.split('.').pop()!;
  const deleted = new Set<string>();
  while (deleted.size < tables.length) {
    const ready = tables.filter(
      (table) => !deleted.has(table) && references.every((ref) => bare(ref.parent) !== table || bare(ref.child) === table || deleted.has(bare(ref.child))),
    );
    if (ready.length === 0) throw new Error(`foreign keys in a cycle among ${tables.filter((table) => !deleted.has(table)).join(', ')}`);
    for (const table of ready) {
      await db.query(`delete from ${table}`);
      deleted.add(table);
    }
  }
  const sequences = (await db.query<{ name: string }>(`select sequencename as name from pg_sequences where schemaname = current_schema()`)).rows;
  for (const { name } of sequences) await db.query(`alter sequence ${name} restart`);
  for (const [table, rows] of seeded)
    for (const row of rows) {
      const columns = Object.keys(row);
      await db.query(
        `insert into ${table} (${columns.join(', ')}) values (${columns.map((_, index) => `$${String(index + 1)}`).join(', ')})`,
        Object.values(row),
      );
    }
}

const postgresLeg = (url: string): DatabaseLeg => {
  /** The file's migrated schema: its connection, and whether an open test database holds it. */
  let shared: { schema: string; db: Database; held: boolean; seeded: SeededRows } | undefined;
  afterAll(async () => {
    if (shared === undefined) return;
    await shared.db.query(`drop schema ${shared.schema} cascade`);
    await shared.db.close();
    shared = undefined;
  });
  const secondInstances = (schema: string) => {
    const others: Database[] = [];
    return {
      open: async () => {
        const other = await openPostgres({ connectionString: url, schema });
        others.push(other);
        return other;
      },
      close: () => Promise.all(others.map((other) => other.close())),
    };
  };
  const leg: DatabaseLeg = {
    name: 'PostgreSQL',
    open: async () => {
      const schema = freshSchemaName();
      const db = await openPostgres({ connectionString: url, schema });
      const others = secondInstances(schema);
      return {
        db,
        openSecondInstance: others.open,
        dispose: async () => {
          await others.close();
          await db.query(`drop schema ${schema} cascade`);
          await db.close();
        },
      };
    },
    openMigrated: async () => {
      if (shared?.held === true) return migrated(await leg.open());
      if (shared === undefined) {
        const schema = freshSchemaName();
        const db = await openPostgres({ connectionString: url, schema });
        await migrate(db);
        shared = { schema, db, held: false, seeded: await seededRows(db) };
      } else {
        await emptyTables(shared.db, shared.seeded);
      }
      const held = shared;
      held.held = true;
      const others = secondInstances(held.schema);
      // The connection stays open for the file's next test; a test that closes it gets a stand-in close.
      return {
        db: { ...held.db, close: async () => undefined },
        openSecondInstance: others.open,
        dispose: async () => {
          await others.close();
          held.held = false;
        },
      };
    },
  };
  return leg;
};

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
    pgliteMigrated = undefined;
  });
  describe(pgliteLeg.name, () => suite(pgliteLeg));
  if (POSTGRES_URL === undefined && !warned) {
    warned = true;
    console.warn(`${SKIP_REASON} (set it to e.g. postgres://postgres@127.0.0.1:5432/test to run it)`);
  }
  const skipped = () => Promise.reject(new Error(SKIP_REASON));
  const leg = POSTGRES_URL === undefined ? { name: SKIP_REASON, open: skipped, openMigrated: skipped } : postgresLeg(POSTGRES_URL);
  describe.skipIf(POSTGRES_URL === undefined)(leg.name, () => suite(leg));
}
