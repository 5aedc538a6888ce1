-- SAML single logout and the sign-in's browser binding (docs/decisions/0028-sso-saml.md "Sign-out", "Login CSRF").

-- The LogoutRequests this gateway sends are kept beside its AuthnRequests, told apart by kind: a LogoutResponse's
-- InResponseTo must name a logout request, a Response's an authn request.
alter table saml_requests add column kind text not null default 'authn' check (kind in ('authn', 'logout'));
-- The SHA-256 of the nonce in the httpOnly cookie of the browser that started the sign-in: the Response must come
-- back in that browser.
alter table saml_requests add column binding_hash text check (binding_hash ~ '^[0-9a-f]{64}$');

-- Who the identity provider named in the assertion that opened a session: a LogoutRequest names the same NameID
-- and SessionIndex. Gone with the session.
create table saml_sessions (
  session_id text primary key references sessions (id) on delete cascade,
  site_id text not null,
  name_id text not null,
  name_id_format text,
  session_index text
);
