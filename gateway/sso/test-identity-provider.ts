import { timingSafeEqual } from 'node:crypto';
import { jwtVerify } from 'jose';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';
import type { SsoCredentials } from './client-credentials';
import type { SsoIdentity } from './sso-identities';
import { ID_TOKEN_ALGORITHMS, signJwt, type TestIdpKeys } from './test-idp-keys';
import { OPAQUE_VALUE, PKCE_VERIFIER, pkceChallengeOf, randomToken, sha256Hex, TEST_IDP_BASE_PATH, TEST_IDP_ISSUER, type SsoSite } from './sso-sites';

/** How long the identity picker may stay open, and how long an issued code lives (RFC 6749 §4.1.2: short). */
export const INTERACTION_TTL_SECONDS = 10 * 60;
export const CODE_TTL_SECONDS = 60;
export const ID_TOKEN_TTL_SECONDS = 5 * 60;
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** OpenID Connect Discovery 1.0: the test provider's metadata; endpoints are paths on the gateway's own origin (ADR 0015). */
export function discoveryDocument(): Record<string, unknown> {
  return {
    issuer: TEST_IDP_ISSUER,
    authorization_endpoint: `${TEST_IDP_BASE_PATH}/authorize`,
    token_endpoint: `${TEST_IDP_BASE_PATH}/token`,
    jwks_uri: `${TEST_IDP_BASE_PATH}/jwks`,
    end_session_endpoint: `${TEST_IDP_BASE_PATH}/logout`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...ID_TOKEN_ALGORITHMS],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: ['openid', 'email', 'profile'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...ID_TOKEN_ALGORITHMS],
  };
}

export type EndSessionQuery = Partial<Record<'client_id' | 'post_logout_redirect_uri' | 'state' | 'id_token_hint', string>>;

/**
 * OpenID Connect RP-Initiated Logout 1.0 §2/§3 at the end-session endpoint: a registered client and a
 * post-logout redirect URI registered for it (this provider takes the client's redirect URIs, as
 * Keycloak's "+" does) give the address to send the browser back to, with `state` when one came.
 * This provider keeps no sign-in session of its own (its picker asks who you are on every
 * authorization), so there is nothing more to end here. A refusal is a 400, never a redirect.
 */
export function endSessionRedirect(clients: ReadonlyMap<string, SsoSite>, query: EndSessionQuery): string {
  const client = clients.get(query.client_id ?? '');
  if (!client) throw new HttpError(400, 'UNKNOWN_CLIENT', 'client_id names no client of this identity provider.', { client_id: 'invalid' });
  const target = query.post_logout_redirect_uri ?? '';
  if (!client.redirectUris.includes(target)) {
    throw new HttpError(400, 'REDIRECT_URI_NOT_REGISTERED', 'post_logout_redirect_uri is not registered for this client.', {
      post_logout_redirect_uri: 'invalid',
    });
  }
  if (query.state === undefined) return target;
  return `${target}${target.includes('?') ? '&' : '?'}${new URLSearchParams({ state: query.state }).toString()}`;
}

export type AuthorizationQuery = Partial<
  Record<'response_type' | 'client_id' | 'redirect_uri' | 'scope' | 'state' | 'nonce' | 'code_challenge' | 'code_challenge_method', string>
>;

/**
 * The authorization endpoint: a request from a registered client with an exactly registered
 * redirect URI, PKCE S256, state and nonce becomes an interaction for the identity picker.
 * Every refusal is a 400 here and never a redirect, so a bad redirect_uri is never followed.
 * Returns the path of the picker: the sso-simulator route beside the redirect URI.
 */
export async function beginAuthorization(db: Database, clients: ReadonlyMap<string, SsoSite>, query: AuthorizationQuery, now: Date): Promise<string> {
  const client = clients.get(query.client_id ?? '');
  if (!client) throw new HttpError(400, 'UNKNOWN_CLIENT', 'client_id names no client of this identity provider.', { client_id: 'invalid' });
  const redirectUri = query.redirect_uri ?? '';
  if (!client.redirectUris.includes(redirectUri)) {
    throw new HttpError(400, 'REDIRECT_URI_NOT_REGISTERED', 'redirect_uri is not one of the redirect URIs registered for this client.', {
      redirect_uri: 'invalid',
    });
  }
  const problems: Record<string, string> = {};
  if (query.response_type !== 'code') problems.response_type = 'invalid';
  if (!(query.scope ?? '').split(' ').includes('openid')) problems.scope = 'invalid';
  if (!OPAQUE_VALUE.test(query.state ?? '')) problems.state = 'invalid';
  if (!OPAQUE_VALUE.test(query.nonce ?? '')) problems.nonce = 'invalid';
  if (!S256_CHALLENGE.test(query.code_challenge ?? '')) problems.code_challenge = 'invalid';
  if (query.code_challenge_method !== 'S256') problems.code_challenge_method = 'invalid';
  if (Object.keys(problems).length > 0) {
    throw new HttpError(400, 'INVALID_AUTHORIZATION_REQUEST', `Invalid authorization request: ${Object.keys(problems).join(', ')}.`, problems);
  }
  const interaction = randomToken();
  // Requests past their picker time whose code, if any, has expired too can never be answered or exchanged.
  await db.query('delete from test_idp_authorizations where expires_at < $1 and (code_expires_at is null or code_expires_at < $1)', [now]);
  await db.query(
    `insert into test_idp_authorizations (id, client_id, redirect_uri, scope, state, nonce, code_challenge, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      sha256Hex(interaction),
      client.clientId,
      redirectUri,
      query.scope,
      query.state,
      query.nonce,
      query.code_challenge,
      new Date(now.getTime() + INTERACTION_TTL_SECONDS * 1000),
    ],
  );
  return `${pickerPathOf(redirectUri)}?${new URLSearchParams({ interaction }).toString()}`;
}

/** `/unionbank/en_us/account/redirect-sso` (or the same as an absolute URL) -> `/unionbank/en_us/account/sso-simulator`. */
function pickerPathOf(redirectUri: string): string {
  const path = new URL(redirectUri, 'http://test-idp.invalid').pathname;
  return `${path.slice(0, path.lastIndexOf('/') + 1)}sso-simulator`;
}

interface AuthorizationRow {
  id: string;
  client_id: string;
  redirect_uri: string;
  state: string;
  nonce: string;
  code_challenge: string;
  expires_at: Date;
  code_hash: string | null;
  subject: string | null;
  code_expires_at: Date | null;
  code_used_at: Date | null;
}

async function openInteraction(db: Database, interaction: string, now: Date): Promise<AuthorizationRow> {
  const result = await db.query<AuthorizationRow>('select * from test_idp_authorizations where id = $1', [sha256Hex(interaction)]);
  const row = result.rows[0];
  if (!row || row.code_hash !== null || new Date(row.expires_at).getTime() <= now.getTime()) {
    throw new HttpError(404, 'INTERACTION_NOT_FOUND', 'This sign-in request is unknown, expired or already answered; start the sign-in again.', {
      interaction: 'invalid',
    });
  }
  return row;
}

/** The identity picker's content: who may be chosen for this client. */
export async function describeInteraction(db: Database, identities: readonly SsoIdentity[], interaction: string, now: Date) {
  const row = await openInteraction(db, interaction, now);
  return {
    clientId: row.client_id,
    identities: identities
      .filter((identity) => identity.clientId === row.client_id)
      .map(({ subject, email, givenName, familyName }) => ({ subject, email, givenName, familyName })),
  };
}

/** The picker's choice: a single-use code, and where the browser goes with it (the registered redirect URI). */
export async function chooseIdentity(
  db: Database,
  identities: readonly SsoIdentity[],
  interaction: string,
  subject: string,
  now: Date,
): Promise<{ redirectTo: string }> {
  const row = await openInteraction(db, interaction, now);
  if (!identities.some((identity) => identity.clientId === row.client_id && identity.subject === subject)) {
    throw new HttpError(400, 'UNKNOWN_IDENTITY', 'subject names no identity of this client.', { subject: 'invalid' });
  }
  const code = randomToken();
  const answered = await db.query(
    'update test_idp_authorizations set code_hash = $2, subject = $3, code_expires_at = $4 where id = $1 and code_hash is null returning id',
    [row.id, sha256Hex(code), subject, new Date(now.getTime() + CODE_TTL_SECONDS * 1000)],
  );
  if (answered.rows.length === 0)
    throw new HttpError(404, 'INTERACTION_NOT_FOUND', 'This sign-in request was already answered; start the sign-in again.', { interaction: 'invalid' });
  const separator = row.redirect_uri.includes('?') ? '&' : '?';
  return { redirectTo: `${row.redirect_uri}${separator}${new URLSearchParams({ code, state: row.state }).toString()}` };
}

export type TokenForm = Partial<
  Record<'grant_type' | 'code' | 'redirect_uri' | 'client_id' | 'code_verifier' | 'client_assertion_type' | 'client_assertion', string>
>;

const invalidGrant = (message: string, field: string) => new HttpError(400, 'invalid_grant', message, { [field]: 'invalid' });
const invalidClient = (message: string) => new HttpError(401, 'invalid_client', message, { client_id: 'invalid' });
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** What the token endpoint needs beside the form: its clients, their credentials, its keys. */
export interface TokenEndpoint {
  clients: ReadonlyMap<string, SsoSite>;
  credentials: SsoCredentials;
  keys: TestIdpKeys;
  /** The absolute URL a client assertion may name as its audience, beside the issuer. */
  tokenEndpointUrl: string;
}

/**
 * RFC 6749 §2.3 client authentication as the client's site registers it (`client_auth`): a public
 * client names itself; client_secret_basic proves the secret in the Authorization header (§2.3.1,
 * form-encoded); private_key_jwt signs an assertion (RFC 7523: iss = sub = client, aud = this
 * issuer or token endpoint, not expired) with the key whose private half the site holds.
 */
async function authenticateClient(endpoint: TokenEndpoint, form: TokenForm, authorization: string | undefined, now: Date): Promise<string> {
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  let clientId = form.client_id;
  let secret: string | undefined;
  if (basic) {
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
    try {
      clientId = formDecode(decoded.slice(0, colon));
      secret = formDecode(decoded.slice(colon + 1));
    } catch {
      throw invalidClient('The Authorization header is not client_secret_basic.');
    }
  }
  const client = endpoint.clients.get(clientId ?? '');
  if (!client) throw invalidClient('client_id names no client of this identity provider.');
  const credential = endpoint.credentials.get(client.siteId);
  if (client.clientAuth === 'none') {
    if (basic || form.client_assertion !== undefined) throw invalidClient('This client is public: it authenticates with PKCE only.');
    return client.clientId;
  }
  if (client.clientAuth === 'client_secret_basic') {
    if (secret === undefined || credential?.method !== 'client_secret_basic') throw invalidClient('This client authenticates with client_secret_basic.');
    const given = Buffer.from(secret);
    const expected = Buffer.from(credential.clientSecret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidClient('The client secret is wrong.');
    return client.clientId;
  }
  if (basic || form.client_assertion_type !== JWT_BEARER || form.client_assertion === undefined || credential?.method !== 'private_key_jwt') {
    throw invalidClient('This client authenticates with private_key_jwt.');
  }
  try {
    await jwtVerify(form.client_assertion, credential.privateKey.publicKey, {
      algorithms: [credential.privateKey.alg],
      issuer: client.clientId,
      subject: client.clientId,
      audience: [TEST_IDP_ISSUER, endpoint.tokenEndpointUrl],
      requiredClaims: ['exp', 'jti'],
      currentDate: now,
    });
  } catch {
    throw invalidClient("The client assertion does not verify with the client's key, or names another client, audience or time.");
  }
  return client.clientId;
}

/**
 * The token endpoint (RFC 6749 §4.1.3 with RFC 7636 PKCE): a code is spent by its first use,
 * right or wrong, so a replayed or guessed code never yields a second token; the client then
 * authenticates as its site registers (above), and the ID token is signed with the provider's
 * current key (RS256, PS256 or ES256 as the gateway was given).
 */
export async function exchangeCode(
  db: Database,
  identities: readonly SsoIdentity[],
  endpoint: TokenEndpoint,
  form: TokenForm,
  authorization: string | undefined,
  now: Date,
) {
  if (form.grant_type !== 'authorization_code')
    throw new HttpError(400, 'unsupported_grant_type', 'grant_type must be authorization_code.', { grant_type: 'invalid' });
  if (!OPAQUE_VALUE.test(form.code ?? '')) throw invalidGrant('code is missing or malformed.', 'code');
  const spent = await db.query<AuthorizationRow>(
    'update test_idp_authorizations set code_used_at = $2 where code_hash = $1 and code_used_at is null returning *',
    [sha256Hex(form.code ?? ''), now],
  );
  const row = spent.rows[0];
  if (!row) throw invalidGrant('The authorization code is unknown or was already used.', 'code');
  const clientId = await authenticateClient(endpoint, form, authorization, now);
  if (row.code_expires_at === null || new Date(row.code_expires_at).getTime() <= now.getTime())
    throw invalidGrant('The authorization code has expired.', 'code');
  if (clientId !== row.client_id) throw invalidGrant('client_id is not the client the code was issued to.', 'client_id');
  if (form.redirect_uri !== row.redirect_uri) throw invalidGrant('redirect_uri is not the one of the authorization request.', 'redirect_uri');
  if (!PKCE_VERIFIER.test(form.code_verifier ?? '') || pkceChallengeOf(form.code_verifier ?? '') !== row.code_challenge) {
    throw invalidGrant('code_verifier does not match the code challenge.', 'code_verifier');
  }
  const identity = identities.find((candidate) => candidate.clientId === row.client_id && candidate.subject === row.subject);
  if (!identity) throw invalidGrant('The identity of this code no longer exists.', 'code');
  const issuedAt = Math.floor(now.getTime() / 1000);
  const idToken = await signJwt(
    {
      iss: TEST_IDP_ISSUER,
      sub: identity.subject,
      aud: row.client_id,
      iat: issuedAt,
      exp: issuedAt + ID_TOKEN_TTL_SECONDS,
      nonce: row.nonce,
      email: identity.email,
      email_verified: true,
      given_name: identity.givenName,
      family_name: identity.familyName,
    },
    endpoint.keys.signing,
  );
  return { access_token: randomToken(), token_type: 'Bearer', expires_in: ID_TOKEN_TTL_SECONDS, id_token: idToken };
}
