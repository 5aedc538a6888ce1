import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { Database, Queryable } from '../db/database';
import { DatabaseUnavailableError } from '../db/database-outage';
import type { Clock } from '../time/clock';

/** ADR 0012: how long a taken job is reserved for its runner before another may take it. */
export const JOB_LEASE_MS = 2 * 60_000;
/** A job that failed this many times is dropped (and logged): its caller can ask again. */
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
                     where run_after <= $1 and (locked_until is null or locked_until <= $1)
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
    if (leaseEnded) this.log.warn({ job: job.id, kind: job.kind, attempts: job.attempts }, 'account job taken up again: its lease ended before it was done');
    return job;
  }

  private async run(job: TakenJob): Promise<void> {
    try {
      await this.handlers[job.kind](job.payload, job.attempts, job.id);
      await this.db.query('delete from account_jobs where id = $1', [job.id]);
    } catch (error) {
      // The payload is never logged: it holds e-mail addresses and a password hash.
      if (job.attempts >= MAX_JOB_ATTEMPTS) {
        this.log.error({ err: error, job: job.id, kind: job.kind, attempts: job.attempts }, 'account job failed for the last time; dropped');
        await this.db.query('delete from account_jobs where id = $1', [job.id]);
        return;
      }
      const retryAt = new Date(this.clock.now().getTime() + RETRY_BASE_MS * 2 ** (job.attempts - 1));
      this.log.warn({ err: error, job: job.id, kind: job.kind, attempts: job.attempts }, 'account job failed; will retry');
      await this.db.query('update account_jobs set run_after = $2, locked_until = null where id = $1', [job.id, retryAt]);
    }
  }
}
