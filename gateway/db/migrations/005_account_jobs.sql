-- Work an account call asks for but does not do while the caller waits (ADR 0012): creating a
-- registered account, mailing an activation link or a recovery code. The call stores the job and
-- answers, so a known and an unknown address cost the caller the same; the gateway runs the job
-- right after answering. A job survives a crash: `locked_until` is a lease, and a job whose lease
-- ran out is taken again by any instance. Rows carry no password, code or card number (a
-- registration carries the argon2 hash and card fingerprints only) and are deleted once done.
create table account_jobs (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('registration', 'activation-email', 'recovery-code')),
  payload jsonb not null,
  attempts int not null default 0 check (attempts >= 0),
  run_after timestamptz not null,
  locked_until timestamptz,
  created_at timestamptz not null
);

create index account_jobs_due on account_jobs (run_after);
