-- "This wasn't me" (docs/decisions/0021-backup-codes-and-account-notices.md "Telling the holder"): every
-- notice of a change to a credential, contact point or device carries a link whose token, posted from the
-- secure-account page, ends every session, refresh token and trusted device of the account. Only the
-- SHA-256 of the token is kept (a copy of this table secures no one), it works once (`used_at`, set by one
-- conditional update) and for 7 days. `reveals_email`: the token was mailed to the account's address, so
-- its answer may name that address for the recovery form; a token texted to a phone never does.
create table secure_account_tokens (
  id text primary key check (id ~ '^[0-9a-f]{64}$'),
  user_id uuid not null references users (id) on delete cascade,
  reveals_email boolean not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

create index secure_account_tokens_user on secure_account_tokens (user_id, created_at desc);

-- The devices that signed in to an account, so a sign-in from any other is told to the holder. A device is
-- the browser's `gmap_device` cookie (ADR 0008's per-device limit); only SHA-256(user id, device id) is kept,
-- so the table neither holds a cookie value nor links one browser's accounts to each other. The gateway keeps
-- the 20 devices seen last per account: bounded, and a device gone that long is new again.
create table known_devices (
  user_id uuid not null references users (id) on delete cascade,
  device_hash text not null check (device_hash ~ '^[0-9a-f]{64}$'),
  first_seen_at timestamptz not null,
  last_seen_at timestamptz not null,
  primary key (user_id, device_hash)
);
