-- Single sign-on with SAML 2.0 (docs/decisions/0028-sso-saml.md). Server state, so any gateway
-- instance consumes an assertion another one asked for. Identifiers are kept as SHA-256 (hex).

-- One row per AuthnRequest this gateway sent, found by the hash of its ID: a Response's InResponseTo
-- must name one of them, of the same site, not yet spent (used_at) and not past expires_at.
create table saml_requests (
  id_hash text primary key check (id_hash ~ '^[0-9a-f]{64}$'),
  site_id text not null,
  last_visited_path text,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

-- Every assertion consumed, by the hash of its issuer and ID, until its NotOnOrAfter: a replay is refused.
create table saml_spent_assertions (
  id_hash text primary key check (id_hash ~ '^[0-9a-f]{64}$'),
  site_id text not null,
  expires_at timestamptz not null
);
