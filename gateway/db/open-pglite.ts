import { mkdir } from 'node:fs/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { DATE_TYPE_OID, type Database, type Queryable } from './database';

/**
 * The embedded database (DESIGN "The real parts"): PostgreSQL compiled to WebAssembly, running
 * in the gateway's own process, with its data in `dataDir` so `npm start` keeps data across
 * restarts. Without `dataDir` it lives in memory (tests), from `initialData` when given. PGlite has a single connection and
 * queues queries itself, so there is no pool and no concurrency to manage.
 */
export async function openPglite(dataDir?: string, initialData?: Blob): Promise<Database> {
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(dataDir === undefined ? {} : { dataDir }),
    // A data dir dumped by `dumpDataDir` skips initdb, most of a cold start (the tests' in-memory databases).
    ...(initialData === undefined ? {} : { loadDataDir: initialData }),
    parsers: { [DATE_TYPE_OID]: (value: string) => value },
  });

  return {
    kind: 'pglite',
    ...queryableOf(pglite),
    transaction: (work) => pglite.transaction((tx) => work(queryableOf(tx))),
    // Closing flushes the data directory; a PGlite killed without it may not reopen cleanly.
    close: () => pglite.close(),
  };
}

function queryableOf(target: PGlite | Transaction): Queryable {
  return {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- Queryable.query<T> is generic, so its implementation is too
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      const result = await target.query<T>(sql, params === undefined ? undefined : [...params]);
      return { rows: result.rows };
    },
    exec: async (sql) => {
      await target.exec(sql);
    },
  };
}
