import { validateReturnUrl } from '../../schemas/validators/url';
import { NO_PASSWORD_MARKER } from '../auth/credential-rules';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';
import { isRecord, verifyEs256Jwt } from './es256-jwt';
import { OPAQUE_VALUE, pkceChallengeOf, randomToken, sha256Hex, type SsoSite } from './sso-sites';

/** How long a started sign-in may take at the identity provider before its state is refused. */
export const LOGIN_REQUEST_TTL_SECONDS = 10 * 60;
/** Leeway for the identity provider's clock on `exp`. */
const CLOCK_SKEW_SECONDS = 60;
const DEFAULT_SCOPE = 'openid email profile';

/** A call to the issuer: the test provider in-process, any other issuer over HTTPS (ADR 0015). */
export interface IssuerTransport {
  getJson(url: string): Promise<{ status: number; body: unknown }>;
  postForm(url: string, fields: Record<string, string>): Promise<{ status: number; body: unknown }>;
}

/** SPEC §2 SSO parameters as redirect-sso collects them. */
export type SsoParameters = Partial<Record<'client_id' | 'response_type' | 'scope' | 'state' | 'nonce' | 'redirect_uri' | 'last_visited_path', string>>;

interface Discovery {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
}

async function discover(sso: SsoSite, transport: IssuerTransport): Promise<Discovery> {
  const answer = await transport.getJson(`${sso.issuerUrl}/.well-known/openid-configuration`);
  const body = answer.body;
  if (answer.status !== 200 || !isRecord(body) || body.issuer !== sso.issuerUrl) throw issuerUnavailable();
  const { authorization_endpoint: authorizationEndpoint, token_endpoint: tokenEndpoint, jwks_uri: jwksUri } = body;
  if (typeof authorizationEndpoint !== 'string' || typeof tokenEndpoint !== 'string' || typeof jwksUri !== 'string') throw issuerUnavailable();
  return { authorizationEndpoint, tokenEndpoint, jwksUri };
}

const issuerUnavailable = () => new HttpError(502, 'SSO_ISSUER_UNAVAILABLE', "The site's identity provider did not answer as an OpenID provider; try again later.");

/**
 * Starts the authorization-code flow with PKCE (ADR 0015): checks the collected parameters,
 * keeps the verifier and nonce server-side under the state's hash, bound to `browserBinding`,
 * and answers the issuer's authorization URL.
 */
export async function startSsoSignIn(db: Database, sso: SsoSite, params: SsoParameters, browserBinding: string, transport: IssuerTransport, now: Date): Promise<string> {
  const problems: Array<[string, string, string]> = [];
  if (params.client_id !== undefined && params.client_id !== sso.clientId) problems.push(['client_id', 'SSO_CLIENT_MISMATCH', "client_id is not this site's client."]);
  if ((params.response_type ?? 'code') !== 'code') problems.push(['response_type', 'VALIDATION_FAILED', 'response_type must be code.']);
  const scope = params.scope ?? DEFAULT_SCOPE;
  if (!scope.split(' ').includes('openid')) problems.push(['scope', 'VALIDATION_FAILED', 'scope must include openid.']);
  if (params.state !== undefined && !OPAQUE_VALUE.test(params.state)) problems.push(['state', 'VALIDATION_FAILED', 'state must be 16 to 128 letters, digits or -._~.']);
  if (params.nonce !== undefined && !OPAQUE_VALUE.test(params.nonce)) problems.push(['nonce', 'VALIDATION_FAILED', 'nonce must be 16 to 128 letters, digits or -._~.']);
  const redirectUri = params.redirect_uri ?? sso.redirectUris[0] ?? '';
  if (!sso.redirectUris.includes(redirectUri)) problems.push(['redirect_uri', 'REDIRECT_URI_NOT_REGISTERED', 'redirect_uri is not one of the redirect URIs registered for this site.']);
  const lastVisitedPath = params.last_visited_path || undefined;
  if (lastVisitedPath !== undefined && validateReturnUrl(lastVisitedPath) !== null) {
    problems.push(['last_visited_path', 'LAST_VISITED_PATH_OFF_SITE', 'last_visited_path must be a path on this site with a locale segment.']);
  }
  const [first] = problems;
  if (first) throw new HttpError(400, first[1], problems.map(([, , message]) => message).join(' '), Object.fromEntries(problems.map(([field]) => [field, 'invalid'])));

  const discovery = await discover(sso, transport);
  const state = params.state ?? randomToken();
  const nonce = params.nonce ?? randomToken();
  const verifier = randomToken();
  // Started sign-ins nobody finished go once they cannot be finished any more.
  await db.query('delete from sso_login_requests where expires_at < $1', [now]);
  const inserted = await db.query(
    `insert into sso_login_requests (state_hash, site_id, nonce, code_verifier, redirect_uri, last_visited_path, browser_binding_hash, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (state_hash) do nothing returning state_hash`,
    [sha256Hex(state), sso.siteId, nonce, verifier, redirectUri, lastVisitedPath ?? null, sha256Hex(browserBinding), new Date(now.getTime() + LOGIN_REQUEST_TTL_SECONDS * 1000)],
  );
  if (inserted.rows.length === 0) throw new HttpError(400, 'SSO_STATE_INVALID', 'This state was already used; start the sign-in again without it.', { state: 'invalid' });
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: sso.clientId,
    redirect_uri: redirectUri,
    scope,
    state,
    nonce,
    code_challenge: pkceChallengeOf(verifier),
    code_challenge_method: 'S256',
  });
  return `${discovery.authorizationEndpoint}${discovery.authorizationEndpoint.includes('?') ? '&' : '?'}${query.toString()}`;
}

/** Who the verified ID token names. */
export interface SsoSubject {
  email: string;
  givenName: string | null;
  familyName: string | null;
  lastVisitedPath: string | null;
}

interface LoginRequestRow {
  site_id: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  last_visited_path: string | null;
  browser_binding_hash: string;
  expires_at: Date;
}

const stateRefused = (message: string) => new HttpError(400, 'SSO_STATE_INVALID', message, { state: 'invalid' });
const tokenRefused = (code: string, message: string) => new HttpError(401, code, message, { id_token: 'invalid' });

/**
 * Finishes the flow: spends the state (single use, whatever follows), checks it was started by this
 * browser for this site, exchanges the code with the PKCE verifier, and verifies the ID token's
 * signature, iss, aud, exp and nonce.
 */
export async function finishSsoSignIn(
  db: Database,
  sso: SsoSite,
  answer: { code?: string; state?: string },
  browserBinding: string | undefined,
  transport: IssuerTransport,
  now: Date,
): Promise<SsoSubject> {
  if (!OPAQUE_VALUE.test(answer.code ?? '')) throw new HttpError(400, 'VALIDATION_FAILED', 'code is missing or malformed.', { code: 'invalid' });
  if (!OPAQUE_VALUE.test(answer.state ?? '')) throw stateRefused('state is missing or malformed.');
  const spent = await db.query<LoginRequestRow>('update sso_login_requests set used_at = $2 where state_hash = $1 and used_at is null returning *', [sha256Hex(answer.state ?? ''), now]);
  const request = spent.rows[0];
  if (!request) throw stateRefused('The state is unknown, tampered with or already used; start the sign-in again.');
  if (request.site_id !== sso.siteId) throw stateRefused('The state belongs to another site; start the sign-in again.');
  if (browserBinding === undefined || sha256Hex(browserBinding) !== request.browser_binding_hash) throw stateRefused('The sign-in was started in another browser; start the sign-in again.');
  if (new Date(request.expires_at).getTime() <= now.getTime()) throw stateRefused('The sign-in took too long; start the sign-in again.');

  const discovery = await discover(sso, transport);
  const tokens = await transport.postForm(discovery.tokenEndpoint, {
    grant_type: 'authorization_code',
    code: answer.code ?? '',
    redirect_uri: request.redirect_uri,
    client_id: sso.clientId,
    code_verifier: request.code_verifier,
  });
  if (tokens.status !== 200 || !isRecord(tokens.body) || typeof tokens.body.id_token !== 'string') {
    const reason = isRecord(tokens.body) && typeof tokens.body.message === 'string' ? ` (${tokens.body.message})` : '';
    throw new HttpError(401, 'SSO_CODE_REJECTED', `The identity provider refused the authorization code${reason}; start the sign-in again.`, { code: 'invalid' });
  }
  const jwks = await transport.getJson(discovery.jwksUri);
  const keys = isRecord(jwks.body) && Array.isArray(jwks.body.keys) ? jwks.body.keys : [];
  const verified = verifyEs256Jwt(tokens.body.id_token, keys);
  if ('refusal' in verified) throw tokenRefused('SSO_ID_TOKEN_INVALID', 'The ID token signature does not verify with the identity provider\'s keys.');
  const claims = verified.claims;
  if (claims.iss !== sso.issuerUrl) throw tokenRefused('SSO_ID_TOKEN_INVALID', "The ID token was not issued by the site's identity provider (iss).");
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audience.includes(sso.clientId)) throw tokenRefused('SSO_ID_TOKEN_INVALID', "The ID token is not meant for this site's client (aud).");
  if (typeof claims.exp !== 'number' || claims.exp + CLOCK_SKEW_SECONDS <= now.getTime() / 1000) throw tokenRefused('SSO_ID_TOKEN_INVALID', 'The ID token has expired (exp).');
  if (claims.nonce !== request.nonce) throw tokenRefused('SSO_NONCE_MISMATCH', 'The ID token nonce does not match this sign-in; start the sign-in again.');
  if (typeof claims.email !== 'string' || claims.email_verified !== true) throw tokenRefused('SSO_ID_TOKEN_INVALID', 'The ID token carries no verified e-mail address.');
  return {
    email: claims.email.toLowerCase(),
    givenName: typeof claims.given_name === 'string' ? claims.given_name : null,
    familyName: typeof claims.family_name === 'string' ? claims.family_name : null,
    lastVisitedPath: request.last_visited_path,
  };
}

/** An ID token's person as a card holder of the site: found by e-mail, or created active with no usable password. */
export async function findOrCreateSsoUser(db: Database, siteId: string, subject: SsoSubject) {
  return db.transaction(async (tx) => {
    // SSO users never sign in with a password: this marker is no Argon2 hash, so every password check fails.
    const upserted = await tx.query<{ id: string; roles: string[]; status: string; mfa_enrollment_status: string }>(
      `insert into users (email, password_hash, first_name, last_name, status, roles)
       values ($1, $4, $2, $3, 'ACTIVE', '{ROLE_CARDHOLDER}')
       on conflict (email) do update set email = excluded.email
       returning id, roles, status, mfa_enrollment_status`,
      [subject.email, subject.givenName, subject.familyName, NO_PASSWORD_MARKER],
    );
    const user = upserted.rows[0];
    if (!user) throw new Error('The SSO user was neither found nor created');
    // ADR 0014: an agent account is reached only by its own password sign-in, never through a site's SSO.
    if (!user.roles.includes('ROLE_CARDHOLDER')) throw new HttpError(403, 'SSO_ACCOUNT_NOT_CARDHOLDER', 'This identity belongs to an account that cannot sign in through SSO.');
    await tx.query('insert into user_sites (user_id, site_id) values ($1, $2) on conflict do nothing', [user.id, siteId]);
    return { userId: user.id, siteId, roles: user.roles, status: user.status, mfaEnrollmentStatus: user.mfa_enrollment_status };
  });
}
