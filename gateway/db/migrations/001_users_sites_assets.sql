-- Users, their per-site attributes and their enrolled cards (SPEC §3 "User profile",
-- "User site attributes", "Enrolled asset"). No column holds a full card number (DESIGN
-- "Contracts"): a card is its last four digits plus a keyed fingerprint of the digits.

create table users (
  id uuid primary key default gen_random_uuid(),
  -- Stored lower-cased so the plain unique constraint is case-insensitive.
  email text not null unique check (email = lower(email)),
  password_hash text not null,
  first_name text,
  last_name text,
  dob date,
  title text,
  gender text,
  locale text,
  status text not null default 'INACTIVE' check (status in ('ACTIVE', 'INACTIVE', 'LOCKED')),
  roles text[] not null default '{}',
  mfa_enrollment_status text not null default 'NOT_ENROLLED',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table user_sites (
  user_id uuid not null references users (id) on delete cascade,
  site_id text not null,
  attributes jsonb not null default '{}',
  updated_at timestamptz not null default now(),
  primary key (user_id, site_id)
);

create table assets (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  site_id text not null,
  asset_type text not null default 'PAN',
  last_four char(4) not null check (last_four ~ '^[0-9]{4}$'),
  product_type text,
  -- HMAC-SHA256 (hex) of the card digits with the server's key: finds duplicates, reveals nothing.
  pan_fingerprint text not null check (pan_fingerprint ~ '^[0-9a-f]{64}$'),
  vop_card_id text,
  issuer_bid text,
  is_default boolean not null default false,
  created_at timestamptz not null default now(),
  unique (user_id, site_id, pan_fingerprint)
);

-- SPEC §4 "Setting a default marks only that card": at most one default card per user and site.
create unique index assets_one_default_per_user_site on assets (user_id, site_id) where is_default;
