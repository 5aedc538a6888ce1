import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { Database, Queryable } from '../db/database';
import { DatabaseUnavailableError } from '../db/database-outage';
import type { Clock } from '../time/clock';

/** ADR 0012: how long a taken job is reserved for its runner before another may take it. */
export const JOB_LEASE_MS = 2 * 60_000;
/** A job that failed this many times is dropped: kept with its reason, logged once, never taken again until retried (`jobs/dropped-jobs.ts`). */
export const MAX_JOB_ATTEMPTS = 5;
/** First retry after this long, doubling each time. */
const RETRY_BASE_MS = 30_000;
/** How often a gateway looks for jobs left by another instance, a crash, or a retry coming due. */
export const JOB_POLL_INTERVAL_MS = 5_000;

export type JobKind = 'registration' | 'activation-email' | 'recovery-code' | 'account-notice' | 'alias-proof' | 'phone-proof';

/**
 * What runs a job; `attempt` is 1 for the first run, `jobId` names the job across its runs (a run after a
 * crash repeats what the first may already have done). A throw means "try again later".
 */
export type JobHandler = (payload: Record<string, unknown>, attempt: number, jobId: string) => Promise<void>;

/** What the queue tells the metrics (gateway/metrics/gateway-metrics.ts); kinds only, never a payload. */
export interface JobEvents {
  retried(kind: JobKind): void;
  dropped(kind: JobKind): void;
  takenAfterLease(kind: JobKind): void;
}

/**
 * Why a job was dropped, as kept on its row: the error's name and its code (a mail server's `EENVELOPE`, a
 * database's `57P01`), never its message, which may quote an address or a statement's parameters.
 */
export function dropReasonOf(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  const { code } = error as Error & { code?: unknown };
  const named = typeof code === 'string' || typeof code === 'number' ? `${error.name} ${String(code)}` : error.name;
  return named.replace(/[^A-Za-z0-9_. -]/g, '').slice(0, 200) || 'Error';
}

interface TakenJob {
  id: string;
  kind: JobKind;
  payload: Record<string, unknown>;
  attempts: number;
}

/**
 * The account jobs of ADR 0012 in the database. A call `enqueue`s and answers; `wake()` (after the
 * answer is sent) runs what is due, one job at a time; a poll timer picks up jobs another instance
 * left behind. Taking a job is one conditional update with SKIP LOCKED, so several gateways on one
 * PostgreSQL never run the same job twice at once.
 */
export class JobQueue {
  private running: Promise<void> | null = null;
  /** Wakes promised to answers that are on their way out (`wakeAfterAnswer`). */
  private readonly wakesDue = new Set<Promise<void>>();
  private runAgain = false;
  private poller: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly handlers: Readonly<Record<JobKind, JobHandler>>,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    /** README "Metrics": retries, drops and jobs taken up after their lease; none in tests that do not look. */
    private readonly metrics?: JobEvents,
  ) {}

  /** Stores a job (inside the caller's transaction when `on` is one). */
  async enqueue(kind: JobKind, payload: Record<string, unknown>, on: Queryable = this.db): Promise<void> {
    const now = this.clock.now();
    await on.query('insert into account_jobs (kind, payload, run_after, created_at) values ($1, $2, $3, $3)', [kind, JSON.stringify(payload), now]);
  }

  /**
   * Runs the due jobs once `reply` has gone out, so the caller never waits for them. The run starts
   * a turn of the event loop later: a database that computes in this thread (PGlite) would
   * otherwise hold up whatever else is finishing with this answer.
   */
  wakeAfterAnswer(reply: FastifyReply): void {
    const woken = new Promise<void>((resolve) => {
      let answered = false;
      reply.raw.once('finish', () => {
        answered = true;
        setTimeout(() => {
          this.wake();
          resolve();
        }, 0);
      });
      // An answer that never went out (the connection dropped) leaves its job to the poll.
      reply.raw.once('close', () => {
        if (!answered) resolve();
      });
    });
    this.wakesDue.add(woken);
    void woken.then(() => this.wakesDue.delete(woken));
  }

  /** Runs every due job soon; when a run is under way, one more run follows it. */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.runAgain = true;
      return;
    }
    this.running = this.runDueJobs().finally(() => {
      this.running = null;
      if (this.runAgain) {
        this.runAgain = false;
        this.wake();
      }
    });
  }

  /** Resolves once no run is under way or about to start (tests read the outbox after this). */
  async whenIdle(): Promise<void> {
    while (this.running || this.wakesDue.size > 0) {
      await Promise.all(this.wakesDue);
      if (this.running) await this.running;
    }
  }

  startPolling(intervalMs = JOB_POLL_INTERVAL_MS): void {
    this.poller ??= setInterval(() => this.wake(), intervalMs);
    this.poller.unref();
  }

  /** Stops taking jobs and waits for the one running; what is left stays for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.poller) clearInterval(this.poller);
    await this.whenIdle();
  }

  /**
   * Takes and runs due jobs one at a time until none is due or closing began. A job is taken only
   * while the queue is open, and a job in hand always runs: one left taken would wait out its lease.
   */
  private async runDueJobs(): Promise<void> {
    try {
      while (!this.closed) {
        const job = await this.takeDueJob();
        if (job === null) return;
        await this.run(job);
      }
    } catch (error) {
      // The database itself failed (closing, connection lost): the poll tries again later. An outage the
      // database watcher already logged (`db/database-outage.ts`) is not logged again every poll.
      if (!(error instanceof DatabaseUnavailableError)) this.log.error({ err: error }, 'account jobs could not be read');
    }
  }

  private async takeDueJob(): Promise<TakenJob | null> {
    const now = this.clock.now();
    // `locked_until` is only ever set by a taking and cleared by a retry, so a due job that still has one was
    // taken by a runner that stopped (a killed or crashed instance) and whose lease has ended.
    const taken = await this.db.query<TakenJob & { lease_ended: boolean }>(
      `with due as (select id, locked_until is not null as lease_ended from account_jobs
                     where dropped_at is null and run_after <= $1 and (locked_until is null or locked_until <= $1)
                     order by created_at limit 1 for update skip locked)
       update account_jobs set attempts = attempts + 1, locked_until = $2
         from due where account_jobs.id = due.id
       returning account_jobs.id, kind, payload, attempts, due.lease_ended`,
      [now, new Date(now.getTime() + JOB_LEASE_MS)],
    );
    const row = taken.rows[0];
    if (row === undefined) return null;
    const { lease_ended: leaseEnded, ...job } = row;
    // Its id and kind only: the payload holds e-mail addresses and a password hash.
    if (leaseEnded) {
      this.log.warn({ job: job.id, kind: job.kind, attempts: job.attempts }, 'account job taken up again: its lease ended before it was done');
      this.metrics?.takenAfterLease(job.kind);
    }
    return job;
  }

  private async run(job: TakenJob): Promise<void> {
    try {
      await this.handlers[job.kind](job.payload, job.attempts, job.id);
      await this.db.query('delete from account_jobs where id = $1', [job.id]);
    } catch (error) {
      // The payload is never logged: it holds e-mail addresses and a password hash.
      if (job.attempts >= MAX_JOB_ATTEMPTS) {
        // Kept for an operator to see and retry (README "Dropped jobs"); logged this once.
        const reason = dropReasonOf(error);
        this.log.error(
          { err: error, job: job.id, kind: job.kind, attempts: job.attempts, reason },
          'account job failed for the last time; dropped (kept for retry)',
        );
        await this.db.query('update account_jobs set dropped_at = $2, drop_reason = $3, locked_until = null where id = $1', [job.id, this.clock.now(), reason]);
        this.metrics?.dropped(job.kind);
        return;
      }
      const retryAt = new Date(this.clock.now().getTime() + RETRY_BASE_MS * 2 ** (job.attempts - 1));
      this.log.warn({ err: error, job: job.id, kind: job.kind, attempts: job.attempts }, 'account job failed; will retry');
      this.metrics?.retried(job.kind);
      await this.db.query('update account_jobs set run_after = $2, locked_until = null where id = $1', [job.id, retryAt]);
    }
  }
}
