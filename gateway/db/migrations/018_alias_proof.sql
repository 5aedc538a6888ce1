-- docs/decisions/0022-declared-calls.md "Proving an EMAIL alias" (ADR 0017: the alias oracle and squatting):
-- an EMAIL alias is stored unproved and counts for nothing until the owner of the address enters the code
-- mailed to it. Until then any number of accounts may hold the same unproved address, so a squatter never
-- stands in the real owner's way, and storing one tells the caller nothing about who else has the address.
-- A USERNAME needs no proof. Only a keyed hash of the code is kept (HMAC-SHA256 under the gateway's
-- signing key, salted with `proof_id`), as `one_time_codes` keeps its codes (ADR 0008: 10 minutes, 5 attempts).
alter table user_aliases add column proved_at timestamptz;
alter table user_aliases add column proof_id uuid;
alter table user_aliases add column proof_hash text check (proof_hash ~ '^[0-9a-f]{64}$');
alter table user_aliases add column proof_expires_at timestamptz;
alter table user_aliases add column proof_attempts int not null default 0 check (proof_attempts >= 0);

-- A code belongs to an unproved address only, and comes whole (id, hash and expiry together).
alter table user_aliases add constraint user_aliases_proof_check check (
  (alias_type = 'EMAIL' or (proved_at is null and proof_id is null))
  and (proved_at is null or proof_id is null)
  and (proof_id is null) = (proof_hash is null)
  and (proof_id is null) = (proof_expires_at is null)
);

-- Unique on the site: every handle, and an address once proved. Addresses stored before this migration
-- were never proved, so they stay unproved (`proved_at` null) until their holder asks for a code again.
drop index user_aliases_site_alias;
create unique index user_aliases_site_alias on user_aliases (site_id, alias_type, normalised) where alias_type <> 'EMAIL' or proved_at is not null;

-- ADR 0012's job queue mails the code (or, to an address that is already someone's, a notice) after the answer.
alter table account_jobs drop constraint account_jobs_kind_check;
alter table account_jobs add constraint account_jobs_kind_check
  check (kind in ('registration', 'activation-email', 'recovery-code', 'account-notice', 'alias-proof'));
