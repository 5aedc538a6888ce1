-- Profile saves and the cashback statement (docs/decisions/0010-profile-and-preferences-api.md).

-- Every save of a user's site attributes bumps `version`; `attribute_versions` keeps, per attribute
-- key, the version that last wrote it, so a save based on an older version is refused only when a
-- key it sends was changed since (two tabs editing different fields both keep their changes).
alter table user_sites add column version integer not null default 0 check (version >= 0);
alter table user_sites add column attribute_versions jsonb not null default '{}';

-- SPEC §3 "Cashback status" lines of the statement (§2 cashback-statement). A card is named by its
-- last four digits and, while it is enrolled, its asset id: never by its number.
create table cashback_lines (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  site_id text not null,
  asset_id uuid references assets (id) on delete set null,
  last_four char(4) not null check (last_four ~ '^[0-9]{4}$'),
  product_type text,
  merchant text not null check (length(merchant) between 1 and 200),
  transaction_date date not null,
  amount_minor bigint not null,
  currency char(3) not null check (currency ~ '^[A-Z]{3}$'),
  status text not null check (status in ('ELIGIBLE', 'NOT_ELIGIBLE', 'PENDING')),
  created_at timestamptz not null default now()
);

create index cashback_lines_user_site_date on cashback_lines (user_id, site_id, transaction_date desc);
