-- Sessions the holder can see (docs/decisions/0025-fresh-proof.md "Sessions the holder can see"): each sign-in
-- records what a person recognises it by, and trusted devices get a row each so they can be listed.
--
-- `public_id` is how the holder's list and its revoke call name a session: random, neither the SESSION token nor
-- its hash (`id`), so the list can be shown to the page without handing out anything a cookie could be made of.
-- `browser` and `os` are names from a closed list (gateway/auth/session-device.ts), never the User-Agent itself.
-- `first_address` is the address the sign-in came from, kept whole here and shown masked (the network only).
-- `last_used_at` moves at most once a minute, in the statement that finds the session (session-store.ts).
alter table sessions
  add column public_id uuid not null default gen_random_uuid(),
  add column browser text,
  add column os text,
  add column first_address text,
  add column last_used_at timestamptz;

update sessions set last_used_at = created_at;
alter table sessions alter column last_used_at set not null;

create unique index sessions_public_id on sessions (public_id);

-- A trusted device (ADR 0008 `trust_device`, ADR 0025 "Trusted devices"): the signed TRUSTED_DEVICE cookie stays
-- the proof, checked without this table; the row is what the holder's list shows. `security_stamp` is the
-- account's stamp when it was trusted, so the list, like the cookie check, drops a device as soon as the stamp
-- changes (a new password, an authenticator, "sign out everywhere"); `ended_at` records when such an ending, or a
-- newer trust of the same browser, ended it.
create table trusted_devices (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  site_id text not null,
  browser text,
  os text,
  security_stamp uuid not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  ended_at timestamptz
);

create index trusted_devices_user on trusted_devices (user_id);
