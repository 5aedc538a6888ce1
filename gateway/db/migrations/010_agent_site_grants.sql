-- Sessions bound to one site (docs/decisions/0017-threat-model.md): a support agent signs in and
-- acts only on the sites granted to them here, never on a site they name at sign-in. Granting is
-- data (the demo users' `agentSites`, or an administrator's insert); withdrawing a grant ends the
-- agent's sessions on that site at their next call.
create table agent_site_grants (
  user_id uuid not null references users (id) on delete cascade,
  site_id text not null,
  granted_at timestamptz not null default now(),
  primary key (user_id, site_id)
);

-- Agents created before grants existed keep the site of their profile, which is where they worked.
insert into agent_site_grants (user_id, site_id)
select u.id, s.site_id
  from users u join user_sites s on s.user_id = u.id
 where 'ROLE_CONCIERGE' = any (u.roles)
on conflict do nothing;
