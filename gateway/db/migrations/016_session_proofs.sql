-- Assurance is data (docs/decisions/0025-fresh-proof.md): every proof a session was given (the password, a
-- passcode and the channel it went by, an authenticator or recovery code, an SSO sign-in), with its time and
-- the site it was given on. Actions that let someone own the account ask for one of the site's strongest
-- kind given within the last 10 minutes; holding the session is not proof.
create table session_proofs (
  session_id text not null references sessions (id) on delete cascade,
  kind text not null check (kind in ('password', 'passcode', 'totp', 'recovery-code', 'sso')),
  channel text check (channel in ('email', 'sms')),
  site_id text not null,
  proved_at timestamptz not null,
  check ((kind = 'passcode') = (channel is not null))
);

create index session_proofs_session on session_proofs (session_id, proved_at desc);

-- A code is accepted only on the site it was sent for (ADR 0025 "Channels come from the site"); a code
-- issued before this column existed names none and is refused, as it expires within 10 minutes anyway.
alter table one_time_codes add column site_id text;

-- A trusted device holds the account's stamp of the day it was trusted (ADR 0025 "Trusted devices"): a new
-- password, an authenticator enrolled or removed, or "sign out everywhere" draw a new stamp, and every
-- device trusted before stops being trusted. Modelled on ASP.NET Identity's security stamp.
alter table users add column security_stamp uuid not null default gen_random_uuid();

-- A sign-in lasts at most 8 hours however often it is refreshed (ADR 0025 "A sign-in's age"): the time of the
-- sign-in travels with every session and refresh token of its chain. Rows from before name none and count from
-- their own creation.
alter table sessions add column signed_in_at timestamptz;
alter table refresh_tokens add column signed_in_at timestamptz;
