import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './database';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;
/**
 * Key of the transaction-scoped advisory lock every migration takes first, so two gateway
 * instances starting together on one PostgreSQL server apply each file exactly once.
 * PGlite accepts the call; it has a single connection anyway.
 */
const MIGRATION_LOCK_KEY = 7_270_001;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/** The numbered SQL files of `gateway/db/migrations`, in order. */
export async function readMigrations(): Promise<Migration[]> {
  const names = (await readdir(MIGRATIONS_DIR)).filter((name) => MIGRATION_FILE.test(name)).sort();
  return Promise.all(
    names.map(async (name) => ({
      version: name.slice(0, 3),
      name,
      sql: await readFile(`${MIGRATIONS_DIR}${name}`, 'utf8'),
    })),
  );
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, each in its own transaction
 * with its record, so a failing file leaves nothing half-applied. Safe at every start.
 * Returns the names of the files applied now. `migrations` is for tests; the gateway applies the folder.
 */
export async function migrate(db: Database, migrations?: Migration[]): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrations ?? (await readMigrations())) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await tx.exec(
        `create table if not exists schema_migrations (
           version text primary key,
           name text not null,
           applied_at timestamptz not null default now()
         )`,
      );
      const done = await tx.query('select 1 from schema_migrations where version = $1', [migration.version]);
      if (done.rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
