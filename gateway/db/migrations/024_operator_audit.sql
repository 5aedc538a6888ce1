-- What an operator did with `npm run admin` (docs/decisions/0026-metrics-and-admin-command.md), audited as an
-- agent's actions are (concierge_audit, migration 008): who (the operator's name), what, to whom, where, and the
-- run's correlation id, written in the same transaction as the change. Plain ids without foreign keys: the trail
-- outlives a deleted account. No password, token or e-mail address is kept here.
create table operator_audit (
  id bigint generated always as identity primary key,
  operator text not null check (char_length(operator) between 1 and 64),
  action text not null check (action in (
    'agent.create', 'agent.disable', 'agent.grant', 'agent.revoke', 'job.retry', 'sessions.end'
  )),
  subject_user_id uuid,
  site_id text,
  job_id uuid,
  correlation_id text not null,
  created_at timestamptz not null default now()
);

create index operator_audit_time on operator_audit (created_at desc);
