import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';
import type { JobEvents, JobKind } from '../jobs/job-queue';
import type { CounterStore } from '../limits/counter-store';
import type { Clock } from '../time/clock';

/**
 * README "Metrics", docs/decisions/0026-metrics-and-admin-command.md: the gateway's Prometheus series, one
 * registry per gateway (tests build many). Every label is from a closed set: a route's pattern as registered
 * (`/api/user-attribute/user/:siteId`, never the URL asked for), a method, a status, a job kind, a machine
 * error code, a lock kind. No label ever carries an e-mail address, a user or job id, a site asked for or a token.
 */

/** The calls whose answers count as sign-in outcomes, by the pattern they are registered at under either API base. */
const SIGN_IN_ROUTES = ['/user-auth/login', '/user-auth/oauth/token', '/user-auth/otp/verify'] as const;
/** A route pattern for requests no route matched (404s of scanners would otherwise mint a series per URL). */
const UNMATCHED_ROUTE = 'unmatched';

declare module 'fastify' {
  interface FastifyRequest {
    /** The machine code of the error this request answered (`onError`), for the sign-in outcome. */
    answeredErrorCode: string | null;
  }
}

export type LockKind = 'account' | 'device';

export class GatewayMetrics implements JobEvents {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'Answered requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly durations = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Time from the request to its answer, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly signIns = new Counter({
    name: 'gateway_sign_ins_total',
    help: 'Sign-in calls by route pattern and outcome (ok, or the machine code of the refusal).',
    labelNames: ['route', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly lockouts = new Counter({
    name: 'gateway_sign_in_lockouts_total',
    help: 'Locks started by the sign-in limits (ADR 0008): an account after wrong passwords, a device after failures.',
    labelNames: ['lock'] as const,
    registers: [this.registry],
  });
  private readonly jobRetries = new Counter({
    name: 'gateway_account_job_retries_total',
    help: 'Account job runs that failed and were put back for a retry, by kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly jobDrops = new Counter({
    name: 'gateway_account_jobs_dropped_total',
    help: 'Account jobs that failed their last attempt and were dropped (kept for retry), by kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly jobsTakenAfterLease = new Counter({
    name: 'gateway_account_jobs_taken_after_lease_total',
    help: 'Account jobs taken up again after their runner stopped and their 2-minute lease ended, by kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  constructor(sources: { db: Database; counters: CounterStore; clock: Clock }) {
    const { db, counters, clock } = sources;
    const registers = [this.registry];
    // Read at each scrape, from the one table every instance shares: one query feeds the three gauges.
    let reading: Promise<JobCounts | null> | null = null;
    const readJobs = () =>
      (reading ??= readJobCounts(db, clock.now())
        // The outage watcher logs an outage (db/database-outage.ts); the scrape says it with gateway_database_up.
        .catch(() => null)
        .finally(() => (reading = null)));
    new Gauge({
      name: 'gateway_account_jobs',
      help: 'Account jobs in the table: due (waiting for a runner), scheduled (a retry not yet due), running (leased), dropped.',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        const counts = await readJobs();
        for (const state of JOB_STATES) this.set({ state }, counts?.[state] ?? 0);
      },
    });
    new Gauge({
      name: 'gateway_account_job_oldest_age_seconds',
      help: 'Age of the oldest account job not dropped (0 when none).',
      registers,
      async collect() {
        this.set((await readJobs())?.oldestAgeSeconds ?? 0);
      },
    });
    new Gauge({
      name: 'gateway_database_up',
      help: '1 when the database answered this scrape, 0 when not.',
      registers,
      async collect() {
        this.set((await readJobs()) === null ? 0 : 1);
      },
    });

    const pool = db.poolState;
    if (pool)
      new Gauge({
        name: 'gateway_database_pool_connections',
        help: 'PostgreSQL pool connections: total open, idle, and requests waiting for one.',
        labelNames: ['state'] as const,
        registers,
        collect() {
          const state = pool();
          this.set({ state: 'total' }, state.total);
          this.set({ state: 'idle' }, state.idle);
          this.set({ state: 'waiting' }, state.waiting);
        },
      });
    new Gauge({
      name: 'gateway_counter_store_up',
      help: 'Whether the sign-in counter store answers a ping (1) or not (0); store is redis or in-process.',
      labelNames: ['store'] as const,
      registers,
      async collect() {
        const up = await counters.ping().then(
          () => 1,
          () => 0,
        );
        this.set({ store: counters.kind }, up);
      },
    });
  }

  retried(kind: JobKind): void {
    this.jobRetries.inc({ kind });
  }

  dropped(kind: JobKind): void {
    this.jobDrops.inc({ kind });
  }

  takenAfterLease(kind: JobKind): void {
    this.jobsTakenAfterLease.inc({ kind });
  }

  lockStarted(lock: LockKind): void {
    this.lockouts.inc({ lock });
  }

  /** Counts every answer of `app` by route pattern and status, and the sign-in calls by outcome. */
  countAnswers(app: FastifyInstance): void {
    app.decorateRequest('answeredErrorCode', null);
    app.addHook('onError', async (request, _reply, error) => {
      request.answeredErrorCode = error instanceof HttpError ? error.code : null;
    });
    app.addHook('onResponse', async (request, reply) => {
      const route = routeOf(request);
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      this.requests.inc(labels);
      this.durations.observe(labels, reply.elapsedTime / 1000);
      if (SIGN_IN_ROUTES.some((path) => route.endsWith(path)) && request.method === 'POST') {
        const outcome = reply.statusCode < 400 ? 'ok' : (request.answeredErrorCode ?? `HTTP_${String(reply.statusCode)}`);
        this.signIns.inc({ route, outcome });
      }
    });
  }

  /** The exposition text of every series. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }
}

const JOB_STATES = ['due', 'scheduled', 'running', 'dropped'] as const;
type JobCounts = Record<(typeof JOB_STATES)[number], number> & { oldestAgeSeconds: number };

async function readJobCounts(db: Database, now: Date): Promise<JobCounts> {
  const { rows } = await db.query<Record<(typeof JOB_STATES)[number], number> & { oldest: Date | string | null }>(
    `select count(*) filter (where dropped_at is null and run_after <= $1 and (locked_until is null or locked_until <= $1))::int as due,
            count(*) filter (where dropped_at is null and run_after > $1 and (locked_until is null or locked_until <= $1))::int as scheduled,
            count(*) filter (where dropped_at is null and locked_until > $1)::int as running,
            count(*) filter (where dropped_at is not null)::int as dropped,
            min(created_at) filter (where dropped_at is null) as oldest
       from account_jobs`,
    [now],
  );
  const row = rows[0] ?? { due: 0, scheduled: 0, running: 0, dropped: 0, oldest: null };
  const oldestAgeSeconds = row.oldest === null ? 0 : Math.max(0, (now.getTime() - new Date(row.oldest).getTime()) / 1000);
  return { due: row.due, scheduled: row.scheduled, running: row.running, dropped: row.dropped, oldestAgeSeconds };
}

function routeOf(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  // Fastify's not-found handler has no pattern; the static app's `/*` is one pattern for every file.
  return pattern === undefined || pattern === '' ? UNMATCHED_ROUTE : pattern;
}
