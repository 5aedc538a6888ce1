-- The server keys' rings (docs/decisions/0026-metrics-and-admin-command.md "Key rotation with a grace window"):
-- per key name, the key that signs or seals now and the earlier ones that only verify or open until retires_at.
-- The environment's key of each name (TOKEN_SIGNING_KEY, TOTP_ENCRYPTION_KEY, CARD_FINGERPRINT_KEY) is the entry
-- `env`: its secret stays in the environment, so everything signed, sealed or fingerprinted before this
-- migration keeps its key. A key made by `admin keys rotate` is stored sealed (AES-256-GCM) under a key derived
-- from that environment key, so a copy of the database alone opens none of them.
create table server_keys (
  name text not null check (name in ('token-signing', 'totp-encryption', 'card-fingerprint')),
  id text not null check (id ~ '^(env|k[0-9]{1,6})$'),
  sealed_secret text,
  created_at timestamptz not null,
  -- No instance signs with a key before every instance has read it (README "Rotating a key").
  activates_at timestamptz not null,
  retires_at timestamptz,
  primary key (name, id),
  check ((id = 'env') = (sealed_secret is null)),
  check (retires_at is null or retires_at >= activates_at)
);

insert into server_keys (name, id, created_at, activates_at)
  values ('token-signing', 'env', now(), 'epoch'), ('totp-encryption', 'env', now(), 'epoch'), ('card-fingerprint', 'env', now(), 'epoch');

-- Each card row says which card key fingerprinted it; every row before this migration was the environment's key.
alter table assets add column pan_fingerprint_key text not null default 'env';

alter table operator_audit drop constraint operator_audit_action_check;
alter table operator_audit add constraint operator_audit_action_check check (action in (
  'agent.create', 'agent.disable', 'agent.grant', 'agent.revoke', 'job.retry', 'sessions.end', 'key.rotate'
));
alter table operator_audit add column key_name text;
alter table operator_audit add column key_id text;
