-- The concierge (support agent) mode (docs/decisions/0014-concierge.md).

-- The card holder an agent's session acts for: server state, so a browser cannot point the agent at
-- someone else, and revoking the session ends it. A deleted card holder ends it too.
alter table sessions add column acting_for_user_id uuid references users (id) on delete set null;

-- Every action an agent takes for a card holder. Plain ids without foreign keys: the trail outlives a
-- deleted account. `attribute_keys` names what a save touched, never a value that could be secret.
create table concierge_audit (
  id bigint generated always as identity primary key,
  agent_id uuid not null,
  user_id uuid not null,
  site_id text not null,
  action text not null check (action in ('act-for.start', 'act-for.stop', 'attributes.save', 'site-object.save', 'profile.update')),
  attribute_keys text[] not null default '{}',
  correlation_id text not null,
  created_at timestamptz not null default now()
);

create index concierge_audit_agent_time on concierge_audit (agent_id, created_at desc);
create index concierge_audit_user_time on concierge_audit (user_id, created_at desc);
