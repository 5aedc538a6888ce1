-- Two-step backup codes (docs/decisions/0021-backup-codes-and-account-notices.md): ten single-use
-- codes handed out once when an authenticator is enrolled, for the day the phone is lost. Only a keyed
-- hash of each code is kept (HMAC-SHA256 under the gateway's signing key, salted with the user id), so
-- this table cannot be used to sign in. Spending a code is one conditional update of `used_at`, so two
-- racing sign-ins cannot both use it. New codes replace every old one of the user.
create table mfa_recovery_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  code_hash text not null check (code_hash ~ '^[0-9a-f]{64}$'),
  used_at timestamptz,
  created_at timestamptz not null
);

create unique index mfa_recovery_codes_user_hash on mfa_recovery_codes (user_id, code_hash);

-- ADR 0012's job queue also sends the account notices (password changed, account locked or deleted,
-- an agent acted): mailed after the answer, so a notice never slows or changes the call it reports.
alter table account_jobs drop constraint account_jobs_kind_check;
alter table account_jobs add constraint account_jobs_kind_check
  check (kind in ('registration', 'activation-email', 'recovery-code', 'account-notice'));
