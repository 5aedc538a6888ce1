-- Sign-in (docs/decisions/0008-sign-in-api.md): one-time passcodes, refresh tokens and
-- TOTP secrets. Nothing here can be replayed from a copy of the database: codes and refresh
-- tokens are stored as keyed/plain hashes, TOTP secrets encrypted (AES-256-GCM) under a server key.
-- Lockout and rate-limit counters are not here: they live in Redis or in process (ADR 0008 "Limits").

-- A 6-digit passcode sent by e-mail or SMS: single use, valid 10 minutes, at most 5 attempts;
-- a new code for the same user and purpose replaces the previous one (ADR 0008 "Other calls").
create table one_time_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('login', 'otp-check')),
  channel text not null check (channel in ('email', 'sms')),
  -- HMAC-SHA256 (hex) of the code under the server key: six digits alone would be guessed from a plain hash.
  code_hash text not null check (code_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz not null,
  attempts int not null default 0 check (attempts >= 0),
  used_at timestamptz,
  created_at timestamptz not null
);

create index one_time_codes_user_purpose on one_time_codes (user_id, purpose, created_at desc);

-- Refresh tokens (SPEC §4 refresh, §7 grant_type refresh_token): rotated on every use; a token of
-- a family used twice, or revoked, revokes the whole family. The id is the SHA-256 of the token.
create table refresh_tokens (
  id text primary key check (id ~ '^[0-9a-f]{64}$'),
  family_id uuid not null,
  user_id uuid not null references users (id) on delete cascade,
  site_id text not null,
  -- The session opened together with this token, so logging that session out revokes the family.
  session_id text references sessions (id) on delete set null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  revoked_at timestamptz
);

create index refresh_tokens_family on refresh_tokens (family_id);
create index refresh_tokens_session on refresh_tokens (session_id);

-- One TOTP secret per user (RFC 6238): PENDING after setup, ENROLLED after the first code.
-- last_used_step keeps a 30-second step from being accepted twice.
create table totp_secrets (
  user_id uuid primary key references users (id) on delete cascade,
  secret_sealed text not null,
  status text not null check (status in ('PENDING', 'ENROLLED')),
  last_used_step bigint,
  created_at timestamptz not null,
  enrolled_at timestamptz
);
