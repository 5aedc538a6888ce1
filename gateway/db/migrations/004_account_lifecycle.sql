-- Account lifecycle (docs/decisions/0009-account-lifecycle-api.md): activation tokens,
-- password history and recovery passcodes. Every table here hangs off users with ON DELETE
-- CASCADE, so `remove-account` deleting the user removes all of it (ADR 0009 "Deletion").

-- Recovery codes (ADR 0009 "Recovery") are the one-time codes of ADR 0008 with their own purpose,
-- so a login code can never reset a password and the other way round.
alter table one_time_codes drop constraint one_time_codes_purpose_check;
alter table one_time_codes add constraint one_time_codes_purpose_check check (purpose in ('login', 'otp-check', 'recovery'));

-- The token of an activation link: 32 random bytes; only their SHA-256 (hex) is stored, single
-- use, valid 48 hours. A fresh token for the user replaces the previous one.
create table activation_tokens (
  id text primary key check (id ~ '^[0-9a-f]{64}$'),
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

create index activation_tokens_user_id on activation_tokens (user_id);

-- Every password a user has had (argon2id hashes), newest first by created_at: a new password
-- may not be one of the last 4 (SPEC §2 password, ADR 0009 PASSWORD_REUSED).
create table password_history (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  password_hash text not null,
  created_at timestamptz not null
);

create index password_history_user_created on password_history (user_id, created_at desc);
