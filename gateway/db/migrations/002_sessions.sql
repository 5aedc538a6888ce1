-- Sign-in sessions behind the httpOnly SESSION cookie (SPEC §3 "session cookies", §9 storage names).
-- The id is the SHA-256 (hex) of the random token the cookie carries, so a copy of this table
-- cannot be replayed as a cookie.

create table sessions (
  id text primary key check (id ~ '^[0-9a-f]{64}$'),
  user_id uuid not null references users (id) on delete cascade,
  -- The site the person signed in on; the session is valid on every site of the host.
  site_id text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);

create index sessions_user_id on sessions (user_id);
