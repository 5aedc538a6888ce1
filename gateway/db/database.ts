/**
 * The one database interface the gateway talks to (docs/decisions/0003-database-access.md):
 * plain PostgreSQL SQL with `$1` parameters, the same text on the embedded PGlite and on a
 * PostgreSQL server. Everything that stores data goes through these few methods.
 */
export interface QueryResult<T> {
  rows: T[];
}

/** What a query can run on: the database itself, or one transaction of it. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (a migration file). */
  exec(sql: string): Promise<void>;
}

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database extends Queryable {
  readonly kind: DatabaseKind;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PostgreSQL's pool (README "Metrics"); PGlite has one connection and no pool. */
  poolState?: () => PoolState;
}

export interface PoolState {
  /** Connections open. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/**
 * Type OID of `date`. Both drivers would turn it into a JS Date at local midnight, which shifts
 * the day in any time zone west of UTC; a date of birth stays the text 'YYYY-MM-DD' instead.
 */
export const DATE_TYPE_OID = 1082;
