import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Database } from '../../../gateway/db/database';
import { listDroppedJobs, retryDroppedJob } from '../../../gateway/jobs/dropped-jobs';
import { JOB_LEASE_MS, JobQueue, type JobEvents, MAX_JOB_ATTEMPTS, type JobHandler, type JobKind } from '../../../gateway/jobs/job-queue';
import { AdjustableClock } from '../../../gateway/time/clock';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';

/**
 * docs/decisions/0012-account-work-after-the-answer.md: the account jobs table as a queue that
 * survives failures and crashes, and never runs one job twice at once across instances.
 */
const SECRET_IN_PAYLOAD = 'payload-secret-7731';

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let db: Database;
  let clock: AdjustableClock;
  const queues: JobQueue[] = [];
  beforeEach(async () => {
    test = await leg.openMigrated();
    db = test.db;
    clock = new AdjustableClock();
  });
  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.close();
    await test.dispose();
  });

  function queueWith(handler: JobHandler, on: Database = db, events?: JobEvents): { queue: JobQueue; lines: string[] } {
    const { logger, lines } = capturingLogger();
    const handlers: Record<JobKind, JobHandler> = {
      registration: handler,
      'activation-email': handler,
      'recovery-code': handler,
      'account-notice': handler,
      'alias-proof': handler,
      'phone-proof': handler,
    };
    const queue = new JobQueue(on, handlers, clock, logger, events);
    queues.push(queue);
    return { queue, lines };
  }

  const jobsLeft = async () => (await db.query<{ count: number }>('select count(*)::int as count from account_jobs')).rows[0]?.count;

  it('runs a stored job once woken and deletes it', async () => {
    const seen: unknown[] = [];
    const { queue } = queueWith(async (payload, attempt) => void seen.push({ payload, attempt }));
    await queue.enqueue('recovery-code', { email: 'a@example.com' });
    expect(await jobsLeft()).toBe(1);
    queue.wake();
    await queue.whenIdle();
    expect(seen).toEqual([{ payload: { email: 'a@example.com' }, attempt: 1 }]);
    expect(await jobsLeft()).toBe(0);
  });

  it('a failed job waits for its retry (30 s, then doubling) and runs again with the next attempt number', async () => {
    const attempts: number[] = [];
    const { queue, lines } = queueWith(async (_payload, attempt) => {
      attempts.push(attempt);
      if (attempt === 1) throw new Error('mail server down');
    });
    await queue.enqueue('activation-email', { secret: SECRET_IN_PAYLOAD });
    queue.wake();
    await queue.whenIdle();
    expect(attempts).toEqual([1]);
    queue.wake();
    await queue.whenIdle();
    // Not due yet: nothing runs before the retry time.
    expect(attempts).toEqual([1]);
    clock.advance(31);
    queue.wake();
    await queue.whenIdle();
    expect(attempts).toEqual([1, 2]);
    expect(await jobsLeft()).toBe(0);
    expect(lines.some((line) => line.includes('will retry'))).toBe(true);
    expect(lines.join('\n')).not.toContain(SECRET_IN_PAYLOAD);
  });

  it(`README "Dropped jobs": a job failing ${MAX_JOB_ATTEMPTS} times is dropped, kept with its reason, logged once without its payload, and runs again when retried`, async () => {
    let runs = 0;
    let failing = true;
    // README "Metrics": what the queue tells the metrics.
    const told: string[] = [];
    const events: JobEvents = {
      retried: (kind) => told.push(`retried ${kind}`),
      dropped: (kind) => told.push(`dropped ${kind}`),
      takenAfterLease: (kind) => told.push(`taken after lease ${kind}`),
    };
    const { queue, lines } = queueWith(
      async () => {
        runs += 1;
        if (failing) throw Object.assign(new Error('550 mailbox of holder@example.com unavailable'), { code: 'EENVELOPE' });
      },
      db,
      events,
    );
    await queue.enqueue('registration', { secret: SECRET_IN_PAYLOAD });
    for (let round = 0; round < MAX_JOB_ATTEMPTS + 2; round += 1) {
      queue.wake();
      await queue.whenIdle();
      clock.advance(3600);
    }
    expect(runs).toBe(MAX_JOB_ATTEMPTS);
    expect(told).toEqual([...Array.from({ length: MAX_JOB_ATTEMPTS - 1 }, () => 'retried registration'), 'dropped registration']);
    // Kept, not deleted, and never taken again by itself.
    expect(await jobsLeft()).toBe(1);
    const dropped = await listDroppedJobs(db);
    expect(dropped).toEqual([expect.objectContaining({ kind: 'registration', attempts: MAX_JOB_ATTEMPTS, reason: 'Error EENVELOPE' })]);
    expect(lines.filter((line) => line.includes('dropped'))).toHaveLength(1);
    expect(lines.join('\n')).not.toContain(SECRET_IN_PAYLOAD);
    // The reason never keeps the error's message (it may quote an address).
    expect(JSON.stringify(dropped)).not.toContain('holder@example.com');
    clock.advance(86_400);
    queue.wake();
    await queue.whenIdle();
    expect(runs).toBe(MAX_JOB_ATTEMPTS);

    failing = false;
    expect(await retryDroppedJob(db, dropped[0]!.id, clock.now())).toBe('registration');
    // A second retry of the same job finds nothing dropped.
    expect(await retryDroppedJob(db, dropped[0]!.id, clock.now())).toBeNull();
    queue.wake();
    await queue.whenIdle();
    expect(runs).toBe(MAX_JOB_ATTEMPTS + 1);
    expect(await jobsLeft()).toBe(0);
    expect(await listDroppedJobs(db)).toEqual([]);
  });

  it('retrying an id that is no dropped job (unknown, malformed, or still running its attempts) changes nothing', async () => {
    const { queue } = queueWith(async () => {
      throw new Error('fails');
    });
    await queue.enqueue('recovery-code', {});
    queue.wake();
    await queue.whenIdle();
    const { rows } = await db.query<{ id: string }>('select id from account_jobs');
    expect(await retryDroppedJob(db, rows[0]!.id, clock.now())).toBeNull();
    expect(await retryDroppedJob(db, 'not-a-job-id', clock.now())).toBeNull();
    expect(await retryDroppedJob(db, '00000000-0000-4000-8000-000000000000', clock.now())).toBeNull();
    expect((await db.query<{ attempts: number }>('select attempts from account_jobs')).rows).toEqual([{ attempts: 1 }]);
  });

  it('a job whose runner died (lease still held) waits for the lease to run out, then another instance runs it', async () => {
    const seen: number[] = [];
    const { queue } = queueWith(async (_payload, attempt) => void seen.push(attempt));
    await queue.enqueue('recovery-code', { email: 'b@example.com' });
    // What a crash mid-job leaves: the job taken (attempt 1) with its lease running.
    await db.query('update account_jobs set attempts = 1, locked_until = $1', [new Date(clock.now().getTime() + JOB_LEASE_MS)]);
    queue.wake();
    await queue.whenIdle();
    expect(seen).toEqual([]);
    clock.advance(JOB_LEASE_MS / 1000 + 1);
    queue.wake();
    await queue.whenIdle();
    expect(seen).toEqual([2]);
  });

  it('README "Stopping": a job whose lease ended is taken up again and logged with its id and kind, never its payload', async () => {
    const { queue, lines } = queueWith(async () => undefined);
    await queue.enqueue('activation-email', { email: 'lease@example.com', secret: SECRET_IN_PAYLOAD });
    const [job] = (await db.query<{ id: string }>('select id from account_jobs')).rows;
    // A killed instance's job: taken once, its lease ended a moment ago.
    await db.query('update account_jobs set attempts = 1, locked_until = $1', [new Date(clock.now().getTime() - 1000)]);
    queue.wake();
    await queue.whenIdle();
    expect(await jobsLeft()).toBe(0);
    const taken = lines.filter((line) => line.includes('lease ended'));
    expect(taken).toHaveLength(1);
    expect(JSON.parse(taken[0]!)).toMatchObject({ job: job!.id, kind: 'activation-email', attempts: 2 });
    expect(lines.join('\n')).not.toContain('lease@example.com');
    expect(lines.join('\n')).not.toContain(SECRET_IN_PAYLOAD);
  });

  it('README "Stopping": a job whose taking was under way when closing began still runs to its end, not left to its lease', async () => {
    const seen: unknown[] = [];
    let closing: Promise<void> | undefined;
    // The queue's database, with close() called while the query that takes a job is on its way.
    const racing: Database = {
      ...db,
      query: async <T>(sql: string, params?: readonly unknown[]) => {
        const result = await db.query<T>(sql, params);
        if (sql.includes('locked_until = $2') && closing === undefined) closing = queue.close();
        return result;
      },
    };
    const { queue } = queueWith(async (payload) => void seen.push(payload), racing);
    await queue.enqueue('recovery-code', { email: 'racing@example.com' });
    queue.wake();
    await queue.whenIdle();
    await closing;
    expect(seen).toEqual([{ email: 'racing@example.com' }]);
    expect(await jobsLeft()).toBe(0);
  });

  it('README "Stopping": once closing begins no further job is taken; the next stays free for another instance at once', async () => {
    const seen: unknown[] = [];
    let closing: Promise<void> | undefined;
    const { queue } = queueWith(async (payload) => {
      seen.push(payload);
      closing ??= queue.close();
    });
    await queue.enqueue('recovery-code', { n: 1 });
    clock.advance(1);
    await queue.enqueue('recovery-code', { n: 2 });
    queue.wake();
    await queue.whenIdle();
    await closing;
    expect(seen).toEqual([{ n: 1 }]);
    const left = await db.query<{ attempts: number; locked_until: Date | null }>('select attempts, locked_until from account_jobs');
    expect(left.rows).toEqual([{ attempts: 0, locked_until: null }]);
  });

  it('two instances draining one table run each of 30 jobs exactly once', async () => {
    const runs = new Map<string, number>();
    const handler: JobHandler = async (payload) => {
      const id = String(payload.n);
      runs.set(id, (runs.get(id) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 1));
    };
    const first = queueWith(handler).queue;
    const second = queueWith(handler, await test.openSecondInstance()).queue;
    for (let n = 0; n < 30; n += 1) await first.enqueue('recovery-code', { n });
    first.wake();
    second.wake();
    await Promise.all([first.whenIdle(), second.whenIdle()]);
    expect(runs.size).toBe(30);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(await jobsLeft()).toBe(0);
  });

  it('a closed queue takes no more jobs and leaves them stored for the next start', async () => {
    const seen: unknown[] = [];
    const { queue } = queueWith(async (payload) => void seen.push(payload));
    await queue.close();
    await queue.enqueue('recovery-code', { email: 'c@example.com' });
    queue.wake();
    await queue.whenIdle();
    expect(seen).toEqual([]);
    expect(await jobsLeft()).toBe(1);
  });
});
