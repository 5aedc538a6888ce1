-- SPEC §7 `POST user-mgmt/user/alias` (docs/decisions/0022-declared-calls.md): one alias of each type per
-- account and site, and no two accounts of a site with the same one. `normalised` (lower case) is what
-- is unique, so "Ana" and "ana" cannot be two people; `alias` keeps what the holder typed. The unique
-- index decides a race between two accounts claiming one alias: the second insert fails (409).
create table user_aliases (
  user_id uuid not null references users (id) on delete cascade,
  site_id text not null,
  alias_type text not null check (alias_type in ('USERNAME', 'EMAIL')),
  alias text not null check (char_length(alias) between 1 and 254),
  normalised text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (user_id, site_id, alias_type)
);

create unique index user_aliases_site_alias on user_aliases (site_id, alias_type, normalised);

-- ADR 0014: an agent setting an alias for the card holder leaves an audit row like every other change.
alter table concierge_audit drop constraint concierge_audit_action_check;
alter table concierge_audit add constraint concierge_audit_action_check
  check (action in ('act-for.start', 'act-for.stop', 'attributes.save', 'site-object.save', 'profile.update', 'alias.set'));
