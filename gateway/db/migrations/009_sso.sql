-- Single sign-on with OpenID Connect (docs/decisions/0015-sso-oidc.md). Server state, so
-- any gateway instance can finish a flow another one started. Secrets are kept as SHA-256 (hex).

-- The relying party's side: one row per started sign-in, found by the hash of its `state`, holding
-- the PKCE verifier and nonce the browser never sees. Spent (used_at) on the first answer.
create table sso_login_requests (
  state_hash text primary key check (state_hash ~ '^[0-9a-f]{64}$'),
  site_id text not null,
  nonce text not null,
  code_verifier text not null,
  redirect_uri text not null,
  last_visited_path text,
  -- Binds the flow to the browser that started it (httpOnly cookie), against login CSRF.
  browser_binding_hash text not null check (browser_binding_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz not null,
  used_at timestamptz
);

-- The gateway's test identity provider: an authorization request waiting for the simulator's
-- identity picker, then the single-use, short-lived code it issued.
create table test_idp_authorizations (
  id text primary key check (id ~ '^[0-9a-f]{64}$'),
  client_id text not null,
  redirect_uri text not null,
  scope text not null,
  state text not null,
  nonce text not null,
  code_challenge text not null,
  expires_at timestamptz not null,
  code_hash text unique check (code_hash ~ '^[0-9a-f]{64}$'),
  subject text,
  code_expires_at timestamptz,
  code_used_at timestamptz
);
