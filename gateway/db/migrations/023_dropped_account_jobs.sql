-- ADR 0012 "Dropped jobs": a job that failed its last attempt is kept, not deleted, so an operator can
-- see it and retry it (`npm run admin -- jobs list|retry`). `dropped_at` marks it (a dropped job is never
-- taken by a runner); `drop_reason` is the error's name and code, never its message, which may quote an
-- address (a mail server's refusal). Numbered 023, leaving 022 to the SAML work being built beside it:
-- the runner applies every file not yet recorded, whatever its neighbours, so either lands first.
alter table account_jobs add column dropped_at timestamptz;
alter table account_jobs add column drop_reason text check (char_length(drop_reason) <= 200);

create index account_jobs_dropped on account_jobs (dropped_at) where dropped_at is not null;
