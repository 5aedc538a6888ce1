import type { Queryable } from '../db/database';
import type { JobKind } from './job-queue';

/**
 * README "Dropped jobs": the account jobs that failed their last attempt (ADR 0012), kept with their reason
 * until an operator retries them (`npm run admin -- jobs retry <id>`). Never their payload: it holds e-mail
 * addresses and a password hash.
 */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface DroppedJob {
  id: string;
  kind: JobKind;
  attempts: number;
  reason: string;
  createdAt: Date;
  droppedAt: Date;
}

export async function listDroppedJobs(db: Queryable): Promise<DroppedJob[]> {
  const { rows } = await db.query<{ id: string; kind: JobKind; attempts: number; drop_reason: string | null; created_at: Date; dropped_at: Date }>(
    `select id, kind, attempts, drop_reason, created_at, dropped_at from account_jobs
      where dropped_at is not null order by dropped_at, id`,
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    attempts: row.attempts,
    reason: row.drop_reason ?? 'unknown',
    createdAt: new Date(row.created_at),
    droppedAt: new Date(row.dropped_at),
  }));
}

/**
 * Makes a dropped job due again at `now` with a fresh count of attempts; any gateway's poll (every 5 s)
 * takes it. Returns its kind, or null when no dropped job has this id (unknown, or not dropped).
 */
export async function retryDroppedJob(db: Queryable, id: string, now: Date): Promise<JobKind | null> {
  if (!JOB_ID.test(id)) return null;
  const { rows } = await db.query<{ kind: JobKind }>(
    `update account_jobs set dropped_at = null, drop_reason = null, attempts = 0, locked_until = null, run_after = $2
      where id = $1 and dropped_at is not null returning kind`,
    [id, now],
  );
  return rows[0]?.kind ?? null;
}
