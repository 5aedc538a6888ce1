-- docs/decisions/0025-fresh-proof.md "A new phone is proved before it counts": passcodes are texted to the phone
-- the holder proved, `passcode_phone`, never to whatever the `phone` attribute says. A save that changes the
-- attribute keeps the old passcode phone, stores the new number here as waiting for its code, and queues the
-- `phone-proof` job that texts the code to it; entering the code makes it the passcode phone. Until then every
-- sign-in and recovery code still goes to the old phone (or, with none, by e-mail). The number is kept as a text
-- would dial it (`smsNumber`: digits, with a leading `+` when typed so).
alter table user_sites add column passcode_phone text check (passcode_phone ~ '^\+?[0-9]+$');
-- When a session last changed it (a new number proved, or the phone removed), and the passcode phone it replaced;
-- null for a phone given at registration or stored before this rule. For 7 days after a change, password-reset
-- codes do not go to the new number, and "this wasn't me" puts the replaced one back (ADR 0025 "A new phone stays
-- provisional for 7 days").
alter table user_sites add column passcode_phone_changed_at timestamptz;
alter table user_sites add column previous_passcode_phone text check (previous_passcode_phone ~ '^\+?[0-9]+$');

-- A phone stored before this rule was the one passcodes went to, so it stays the passcode phone.
update user_sites
   set passcode_phone = case when btrim(attributes->>'phone') like '+%' then '+' else '' end || regexp_replace(attributes->>'phone', '[^0-9]', '', 'g')
 where regexp_replace(coalesce(attributes->>'phone', ''), '[^0-9]', '', 'g') <> '';

-- One number waiting for its code per account and site; only a keyed hash of the code is kept (HMAC-SHA256 under
-- the gateway's signing key, salted with `proof_id`), as `one_time_codes` and `user_aliases` keep theirs (ADR 0008:
-- 10 minutes, 5 attempts). The code comes whole (id, hash and expiry together) once the job has texted it.
create table phone_proofs (
  user_id uuid not null,
  site_id text not null,
  phone text not null check (phone ~ '^\+?[0-9]+$'),
  proof_id uuid,
  proof_hash text check (proof_hash ~ '^[0-9a-f]{64}$'),
  proof_expires_at timestamptz,
  proof_attempts int not null default 0 check (proof_attempts >= 0),
  created_at timestamptz not null,
  primary key (user_id, site_id),
  foreign key (user_id, site_id) references user_sites (user_id, site_id) on delete cascade,
  check ((proof_id is null) = (proof_hash is null) and (proof_id is null) = (proof_expires_at is null))
);

alter table account_jobs drop constraint account_jobs_kind_check;
alter table account_jobs add constraint account_jobs_kind_check
  check (kind in ('registration', 'activation-email', 'recovery-code', 'account-notice', 'alias-proof', 'phone-proof'));
