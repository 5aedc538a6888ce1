import pg from 'pg';
import { DATE_TYPE_OID, type Database, type Queryable } from './database';

export interface PostgresOptions {
  connectionString: string;
  /**
   * Schema to work in (created when missing), set as the connection's `search_path` so the same
   * unqualified SQL runs in it. Tests give each case a fresh schema; production leaves it unset.
   */
  schema?: string;
  /** Called when an idle pooled connection fails (server restart); without a listener pg would crash the process. */
  onIdleConnectionError?: (error: Error) => void;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** PostgreSQL server mode (DESIGN "Scale"): a pg pool, used when DATABASE_URL is set. */
export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const { connectionString, schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`Schema name "${schema}" must be lowercase letters, digits and "_" (it is put into SQL as an identifier)`);
  }
  const pool = new pg.Pool({
    connectionString,
    connectionTimeoutMillis: 5_000,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        // eslint-disable-next-line @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-enum-assignment -- pg types its parsers per type id and format; this wraps them all and only replaces dates
        oid === DATE_TYPE_OID ? (value: string) => value : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', (error) => options.onIdleConnectionError?.(error));

  try {
    if (schema !== undefined) await pool.query(`create schema if not exists ${schema}`);
  } catch (error) {
    await pool.end();
    throw error;
  }

  return {
    kind: 'postgres',
    ...queryableOf(pool),
    transaction: async (work) => {
      const client = await pool.connect();
      let brokenConnection: Error | undefined;
      // The pool hears an idle connection's failure, not a checked-out one's: a connection the server ends while the
      // transaction is between queries (a password hash, a card fingerprint) emits 'error' here, and unheard that
      // would crash the process (README "Fault drill"). The next query fails, and the connection is not reused.
      const onConnectionError = (error: Error) => (brokenConnection = error);
      client.on('error', onConnectionError);
      try {
        await client.query('begin');
        const result = await work(queryableOf(client));
        await client.query('commit');
        return result;
      } catch (error) {
        // The original error is the one worth reporting; a failed rollback only retires the connection.
        await client
          .query('rollback')
          .catch((rollbackError: unknown) => (brokenConnection = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))));
        throw error;
      } finally {
        client.off('error', onConnectionError);
        client.release(brokenConnection);
      }
    },
    close: () => pool.end(),
    poolState: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

function queryableOf(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- Queryable.query<T> is generic, so its implementation is too
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      const result = await target.query(sql, params === undefined ? undefined : [...params]);
      return { rows: result.rows as T[] };
    },
    // Without parameters pg uses the simple query protocol, which runs several statements.
    exec: async (sql) => {
      await target.query(sql);
    },
  };
}
