import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../http/errors';
import type { Database, Queryable } from './database';

/** How long a caller is told to wait while the database cannot be reached (README "Database outage"). */
export const DATABASE_RETRY_AFTER_SECONDS = 30;

/**
 * README "Database outage": a call that needs the database while it cannot be reached answers 503
 * SERVICE_UNAVAILABLE with Retry-After, as a counter store outage does (ADR 0008 "Counter store
 * unreachable"), instead of a 500 and a stack trace per request. The app counts the wait down.
 */
export class DatabaseUnavailableError extends HttpError {
  constructor() {
    super(503, 'SERVICE_UNAVAILABLE', 'This service is unavailable for a moment; try again shortly.', undefined, {
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    });
  }
}

/** Socket errors of a connection that could not be made or was lost (node-postgres passes Node's own). */
const CONNECTION_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** PostgreSQL's SQLSTATEs of a server going away or not taking connections: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SERVER_GONE_STATES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03']);
/** node-postgres and its pool say these without a code: a pool that waited out `connectionTimeoutMillis`, a connection that dropped. */
const CONNECTION_ERROR_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
];

/**
 * True for an error that says the database cannot be reached, not that a statement failed: the codes
 * above and the SQLSTATE class 08 (connection exception). A statement's own error (a constraint, a
 * syntax error) is the gateway's to report as it always did.
 */
export function isDatabaseConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || SERVER_GONE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (CONNECTION_ERROR_MESSAGES.some((text) => error.message.startsWith(text))) return true;
  return error.cause !== undefined && isDatabaseConnectionError(error.cause);
}

/**
 * `db` with its connection failures turned into DatabaseUnavailableError and logged once per outage:
 * one line when the first call fails to reach it, one when a call reaches it again, as the Redis
 * counter store logs its own (`limits/redis-counter-store.ts`). The lines name the error's code and
 * message only: a query error also carries the statement's parameters.
 */
export function watchDatabaseOutages(db: Database, logger: Pick<FastifyBaseLogger, 'error' | 'info'>): Database {
  let reachable = true;
  const markReachable = () => {
    if (reachable) return;
    reachable = true;
    logger.info({ database: db.kind }, 'database reachable again');
  };
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    let result: T;
    try {
      result = await work();
    } catch (error) {
      // Already counted: a call on the watched database made inside a transaction's work.
      if (error instanceof DatabaseUnavailableError) throw error;
      if (!isDatabaseConnectionError(error)) {
        markReachable();
        throw error;
      }
      if (reachable) {
        reachable = false;
        const { code, message } = error as Error & { code?: string };
        logger.error({ database: db.kind, code, reason: message }, 'database unreachable: calls that need it answer 503 until it answers');
      }
      throw new DatabaseUnavailableError();
    }
    markReachable();
    return result;
  };
  const watched = (target: Queryable): Queryable => ({
    query: (sql, params) => guarded(() => target.query(sql, params)),
    exec: (sql) => guarded(() => target.exec(sql)),
  });
  return {
    kind: db.kind,
    ...watched(db),
    // A transaction's own statements are not wrapped again: the transaction as a whole is.
    transaction: (work) => guarded(() => db.transaction(work)),
    close: () => db.close(),
    ...(db.poolState ? { poolState: db.poolState } : {}),
  };
}
