import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import { DatabaseUnavailableError } from '../../db/database-outage';
import { sendError } from '../../http/errors';
import type { DrainState } from '../../http/draining';
import type { CounterStore } from '../../limits/counter-store';
import { fromContract } from '../../http/route-contract';

/** README "Health and readiness": a dependency that has not answered within this is counted unavailable. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;
/** Dependency results are reused this long, so a flood of anonymous probes costs the database one query a second. */
export const READINESS_REUSE_MS = 1_000;

export interface HealthOptions {
  db: Database;
  /** Checked by readiness only when shared (Redis, REDIS_URL); in-process counters cannot be away. */
  counters: CounterStore | undefined;
  drain: DrainState;
}

type DependencyState = 'ok' | 'unavailable';
interface DependencyChecks {
  database: DependencyState;
  redis?: DependencyState;
}

/**
 * README "Health and readiness", docs/decisions/0017-threat-model.md "Health and readiness":
 * - `health` (unchanged): the database answers `select 1`; for the tests' start-up wait and older probes.
 * - `health/live`: the process answers HTTP; never looks at a dependency, so an outage never restarts it.
 * - `health/ready`: should this instance get traffic: the database answers, Redis answers when
 *   configured, and the gateway is not shutting down. 503 when not, naming each check.
 * Public, as a load balancer calls them without a session; they say only "ok" or "unavailable" per
 * dependency, never an error text, a host or a version.
 */
export async function healthRoutes(app: FastifyInstance, options: HealthOptions): Promise<void> {
  const { db, drain } = options;
  const counters = options.counters?.kind === 'redis' ? options.counters : undefined;

  app.route({
    ...fromContract('GET /health'),
    handler: async (request, reply) => {
      try {
        await db.query('select 1');
      } catch (error) {
        // An outage is logged once by the database watcher (`db/database-outage.ts`), not once per probe.
        if (!(error instanceof DatabaseUnavailableError)) request.log.error({ err: error }, 'health check: database unavailable');
        return sendError(reply, 503, { error: 'DATABASE_UNAVAILABLE', message: 'The database does not answer.' });
      }
      return { status: 'ok', database: db.kind };
    },
  });

  app.route({ ...fromContract('GET /health/live'), handler: async () => ({ status: 'live' }) });

  let checked: { at: number; checks: Promise<DependencyChecks> } | undefined;
  const dependencyChecks = (): Promise<DependencyChecks> => {
    if (checked === undefined || performance.now() - checked.at > READINESS_REUSE_MS)
      checked = { at: performance.now(), checks: checkDependencies(db, counters) };
    return checked.checks;
  };

  app.route({
    ...fromContract('GET /health/ready'),
    handler: async (_request, reply) => {
      // Read after the checks: a shutdown that began while they ran answers not-ready too.
      const checks = { ...(await dependencyChecks()), shutdown: drain.closing ? 'in-progress' : 'no' };
      const failing = [
        ...Object.entries(checks)
          .filter(([name, state]) => name !== 'shutdown' && state !== 'ok')
          .map(([name]) => `${name} unavailable`),
        ...(checks.shutdown === 'no' ? [] : ['shutting down']),
      ];
      reply.header('cache-control', 'no-store');
      if (failing.length > 0) return sendError(reply, 503, { error: 'NOT_READY', message: `Not ready: ${failing.join(', ')}.`, checks });
      return { status: 'ready', checks };
    },
  });
}

async function checkDependencies(db: Database, counters: CounterStore | undefined): Promise<DependencyChecks> {
  const [database, redis] = await Promise.all([answers(() => db.query('select 1')), counters === undefined ? undefined : answers(() => counters.ping())]);
  return { database, ...(redis === undefined ? {} : { redis }) };
}

/** 'ok' when `probe` resolves within the timeout; its error is the watcher's or the store's to log, once per outage. */
async function answers(probe: () => Promise<unknown>): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'unavailable'>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), READINESS_CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      probe().then(
        (): DependencyState => 'ok',
        (): DependencyState => 'unavailable',
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
