import * as oidc from 'openid-client';
import { dropUnprovedAccount, lockUnprovedAccount } from '../account/unproved-accounts';
import { NO_PASSWORD_MARKER } from '../auth/credential-rules';
import type { Database, Queryable } from '../db/database';
import { HttpError } from '../http/errors';
import { cryptoKeyOf, type SsoCredentials } from './client-credentials';
import { IN_PROCESS_ORIGIN, REMOTE_TIMEOUT_MS, type IssuerTransport } from './issuer-transport';
import { areStorableTexts, assertedEmail } from './asserted-values';
import { isPathOfSite } from './site-path';
import { OPAQUE_VALUE, randomToken, sha256Hex, TEST_IDP_ISSUER, type SsoSite } from './sso-sites';
import { ID_TOKEN_ALGORITHMS } from './test-idp-keys';

export type { IssuerTransport } from './issuer-transport';

/** How long a started sign-in may take at the identity provider before its state is refused. */
export const LOGIN_REQUEST_TTL_SECONDS = 10 * 60;
/** Leeway for the identity provider's clock on `exp`. */
const CLOCK_SKEW_SECONDS = 60;
const DEFAULT_SCOPE = 'openid email profile';
/** An issuer's discovery document is read again after this long (its endpoints rarely move). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Its JWKS after this long, or at once when a token names a `kid` the cached set lacks (key rotation). */
const JWKS_TTL_MS = 10 * 60 * 1000;

/** SPEC §2 SSO parameters as redirect-sso collects them. */
export type SsoParameters = Partial<Record<'client_id' | 'response_type' | 'scope' | 'state' | 'nonce' | 'redirect_uri' | 'last_visited_path', string>>;

/**
 * What the relying party (openid-client, ADR 0015) needs beside the site: the back channel to the
 * issuer, whether http issuers are allowed (development only, ADR 0018), and the confidential
 * clients' credentials from the environment.
 */
export interface RelyingPartyContext {
  transport: IssuerTransport;
  development: boolean;
  credentials: SsoCredentials;
}

interface CachedIssuer {
  metadata: oidc.ServerMetadata;
  discoveredAt: number;
  jwks?: { body: string; kids: ReadonlySet<string>; fetchedAt: number };
}

/** Per transport (one per gateway, or the shared network one), then per issuer and mode. */
const issuerCaches = new WeakMap<IssuerTransport, Map<string, CachedIssuer>>();

const issuerUnavailable = () =>
  new HttpError(502, 'SSO_ISSUER_UNAVAILABLE', "The site's identity provider did not answer as an OpenID provider; try again later.");

async function cachedIssuer(sso: SsoSite, context: RelyingPartyContext): Promise<CachedIssuer> {
  let cache = issuerCaches.get(context.transport);
  if (!cache) {
    cache = new Map();
    issuerCaches.set(context.transport, cache);
  }
  const key = `${context.development ? 'development' : 'production'} ${sso.issuerUrl}`;
  const cached = cache.get(key);
  if (cached && Date.now() - cached.discoveredAt < DISCOVERY_TTL_MS) return cached;
  let discovered: oidc.Configuration;
  try {
    // openid-client checks that the document names this very issuer; outside development only https is fetched.
    discovered = await oidc.discovery(new URL(sso.issuerUrl), sso.clientId, undefined, oidc.None(), {
      [oidc.customFetch]: (url, options) => context.transport.fetch(url, options as RequestInit),
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- development only: the test identity provider is served over http (ADR 0018)
      execute: context.development ? [oidc.allowInsecureRequests] : [],
      timeout: REMOTE_TIMEOUT_MS / 1000,
    });
  } catch {
    throw issuerUnavailable();
  }
  const entry: CachedIssuer = { metadata: { ...discovered.serverMetadata() }, discoveredAt: Date.now() };
  cache.set(key, entry);
  return entry;
}

/**
 * The issuer's discovery document (cached an hour per gateway), for any route that needs its
 * endpoints. Endpoints of the in-process test provider are on `IN_PROCESS_ORIGIN`.
 */
export async function discoverIssuer(sso: SsoSite, context: RelyingPartyContext): Promise<Readonly<oidc.ServerMetadata>> {
  return (await cachedIssuer(sso, context)).metadata;
}

/**
 * An openid-client configuration for one call: the cached discovery document with the ID token
 * algorithms narrowed to RS256, PS256 and ES256, the site's client authentication, the gateway's
 * clock (`now`), and a fetch that serves the cached JWKS unless the ID token names a key it lacks.
 */
export async function issuerConfiguration(sso: SsoSite, context: RelyingPartyContext, now: Date): Promise<oidc.Configuration> {
  const issuer = await cachedIssuer(sso, context);
  const offered = issuer.metadata.id_token_signing_alg_values_supported;
  const algorithms = ID_TOKEN_ALGORITHMS.filter((alg) => offered === undefined || offered.includes(alg));
  const config = new oidc.Configuration(
    { ...issuer.metadata, id_token_signing_alg_values_supported: algorithms },
    sso.clientId,
    { [oidc.clockSkew]: Math.round((now.getTime() - Date.now()) / 1000), [oidc.clockTolerance]: CLOCK_SKEW_SECONDS },
    await clientAuthentication(sso, context.credentials),
  );
  config[oidc.customFetch] = jwksCachingFetch(issuer, context.transport);
  // openid-client, as OIDC Core §3.1.3.7 allows, trusts an ID token from the token endpoint on TLS alone and
  // skips its signature; we check it with the issuer's JWKS anyway: a signature that does not verify is refused.
  oidc.enableNonRepudiationChecks(config);
  config.timeout = REMOTE_TIMEOUT_MS / 1000;
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- development only: the test identity provider is served over http (ADR 0018)
  if (context.development) oidc.allowInsecureRequests(config);
  return config;
}

async function clientAuthentication(sso: SsoSite, credentials: SsoCredentials): Promise<oidc.ClientAuth> {
  if (sso.clientAuth === 'none') return oidc.None();
  const credential = credentials.get(sso.siteId);
  // The start refuses such a configuration (run-mode.ts); a gateway built without it answers this, not a 500.
  if (credential?.method !== sso.clientAuth) {
    throw new HttpError(503, 'SSO_CLIENT_NOT_CONFIGURED', `The site's SSO client needs its ${sso.clientAuth} credential, which this gateway was not given.`);
  }
  if (credential.method === 'client_secret_basic') return oidc.ClientSecretBasic(credential.clientSecret);
  return oidc.PrivateKeyJwt({ key: await cryptoKeyOf(credential.privateKey), kid: credential.privateKey.kid });
}

/**
 * The JWKS is fetched once and reused for JWKS_TTL_MS, except when the ID token of this very call
 * names a `kid` the cached set lacks: then it is fetched again once (the provider rotated its keys).
 * ID tokens reach the gateway only from the token endpoint, never from the browser, so no one can
 * make it refetch at will.
 */
function jwksCachingFetch(issuer: CachedIssuer, transport: IssuerTransport): oidc.CustomFetch {
  let tokenKid: string | undefined;
  return async (url, options) => {
    const init = options as RequestInit;
    if (url === issuer.metadata.jwks_uri && options.method === 'GET') {
      const cached = issuer.jwks;
      if (cached && Date.now() - cached.fetchedAt < JWKS_TTL_MS && (tokenKid === undefined || cached.kids.has(tokenKid))) return jsonResponse(cached.body);
      const response = await transport.fetch(url, init);
      if (response.status !== 200) return response;
      const body = await response.text();
      issuer.jwks = { body, kids: kidsOf(body), fetchedAt: Date.now() };
      return jsonResponse(body);
    }
    const response = await transport.fetch(url, init);
    if (url === issuer.metadata.token_endpoint && response.status === 200) tokenKid = idTokenKidOf(await response.clone().text());
    return response;
  };
}

const jsonResponse = (body: string) => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });

function kidsOf(jwks: string): ReadonlySet<string> {
  try {
    const keys = (JSON.parse(jwks) as { keys?: unknown }).keys;
    return new Set(Array.isArray(keys) ? keys.flatMap((key) => (isRecord(key) && typeof key.kid === 'string' ? [key.kid] : [])) : []);
  } catch {
    return new Set();
  }
}

function idTokenKidOf(tokenResponse: string): string | undefined {
  try {
    const body: unknown = JSON.parse(tokenResponse);
    if (!isRecord(body) || typeof body.id_token !== 'string') return undefined;
    const header: unknown = JSON.parse(Buffer.from(body.id_token.split('.')[0] ?? '', 'base64url').toString('utf8'));
    return isRecord(header) && typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The in-process provider's URLs are paths on the gateway's own origin, where the browser must go. */
export const browserUrlOf = (sso: SsoSite, url: URL) =>
  sso.issuerUrl === TEST_IDP_ISSUER && url.origin === IN_PROCESS_ORIGIN ? `${url.pathname}${url.search}` : url.toString();
/** openid-client takes the redirect URI from an absolute callback URL; a registered path is on the in-process origin. */
const callbackUrlOf = (redirectUri: string, answer: { code: string; state: string }) => {
  const url = new URL(redirectUri, IN_PROCESS_ORIGIN);
  url.search = new URLSearchParams(answer).toString();
  return url;
};

/**
 * Starts the authorization-code flow with PKCE (ADR 0015): checks the collected parameters,
 * keeps the verifier and nonce server-side under the state's hash, bound to `browserBinding`,
 * and answers the issuer's authorization URL.
 */
export async function startSsoSignIn(
  db: Database,
  sso: SsoSite,
  params: SsoParameters,
  browserBinding: string,
  context: RelyingPartyContext,
  now: Date,
): Promise<string> {
  const problems: Array<[string, string, string]> = [];
  if (params.client_id !== undefined && params.client_id !== sso.clientId)
    problems.push(['client_id', 'SSO_CLIENT_MISMATCH', "client_id is not this site's client."]);
  if ((params.response_type ?? 'code') !== 'code') problems.push(['response_type', 'VALIDATION_FAILED', 'response_type must be code.']);
  const scope = params.scope ?? DEFAULT_SCOPE;
  if (!scope.split(' ').includes('openid')) problems.push(['scope', 'VALIDATION_FAILED', 'scope must include openid.']);
  if (params.state !== undefined && !OPAQUE_VALUE.test(params.state))
    problems.push(['state', 'VALIDATION_FAILED', 'state must be 16 to 128 letters, digits or -._~.']);
  if (params.nonce !== undefined && !OPAQUE_VALUE.test(params.nonce))
    problems.push(['nonce', 'VALIDATION_FAILED', 'nonce must be 16 to 128 letters, digits or -._~.']);
  const redirectUri = params.redirect_uri ?? sso.redirectUris[0] ?? '';
  if (!sso.redirectUris.includes(redirectUri))
    problems.push(['redirect_uri', 'REDIRECT_URI_NOT_REGISTERED', 'redirect_uri is not one of the redirect URIs registered for this site.']);
  const lastVisitedPath = params.last_visited_path || undefined;
  if (lastVisitedPath !== undefined && !isPathOfSite(lastVisitedPath, sso.siteId)) {
    problems.push(['last_visited_path', 'LAST_VISITED_PATH_OFF_SITE', 'last_visited_path must be a path on this site with a locale segment.']);
  }
  const [first] = problems;
  if (first)
    throw new HttpError(400, first[1], problems.map(([, , message]) => message).join(' '), Object.fromEntries(problems.map(([field]) => [field, 'invalid'])));

  const config = await issuerConfiguration(sso, context, now);
  const state = params.state ?? randomToken();
  const nonce = params.nonce ?? randomToken();
  // PKCE always, for public and confidential clients alike (RFC 9700 §2.1.1).
  const verifier = oidc.randomPKCECodeVerifier();
  // Started sign-ins nobody finished go once they cannot be finished any more.
  await db.query('delete from sso_login_requests where expires_at < $1', [now]);
  const inserted = await db.query(
    `insert into sso_login_requests (state_hash, site_id, nonce, code_verifier, redirect_uri, last_visited_path, browser_binding_hash, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (state_hash) do nothing returning state_hash`,
    [
      sha256Hex(state),
      sso.siteId,
      nonce,
      verifier,
      redirectUri,
      lastVisitedPath ?? null,
      sha256Hex(browserBinding),
      new Date(now.getTime() + LOGIN_REQUEST_TTL_SECONDS * 1000),
    ],
  );
  if (inserted.rows.length === 0)
    throw new HttpError(400, 'SSO_STATE_INVALID', 'This state was already used; start the sign-in again without it.', { state: 'invalid' });
  let authorizationUrl: URL;
  try {
    authorizationUrl = oidc.buildAuthorizationUrl(config, {
      response_type: 'code',
      redirect_uri: redirectUri,
      scope,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
  } catch {
    throw issuerUnavailable();
  }
  return browserUrlOf(sso, authorizationUrl);
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
 * browser for this site, and lets openid-client exchange the code with the PKCE verifier (and the
 * client's credential) and verify the ID token: signature (RS256, PS256 or ES256 with a key of the
 * issuer's JWKS), iss, aud, exp and nonce. A verified e-mail is then required.
 */
export async function finishSsoSignIn(
  db: Database,
  sso: SsoSite,
  answer: { code?: string; state?: string },
  browserBinding: string | undefined,
  context: RelyingPartyContext,
  now: Date,
): Promise<SsoSubject> {
  if (!OPAQUE_VALUE.test(answer.code ?? '')) throw new HttpError(400, 'VALIDATION_FAILED', 'code is missing or malformed.', { code: 'invalid' });
  if (!OPAQUE_VALUE.test(answer.state ?? '')) throw stateRefused('state is missing or malformed.');
  const spent = await db.query<LoginRequestRow>('update sso_login_requests set used_at = $2 where state_hash = $1 and used_at is null returning *', [
    sha256Hex(answer.state ?? ''),
    now,
  ]);
  const request = spent.rows[0];
  if (!request) throw stateRefused('The state is unknown, tampered with or already used; start the sign-in again.');
  if (request.site_id !== sso.siteId) throw stateRefused('The state belongs to another site; start the sign-in again.');
  if (browserBinding === undefined || sha256Hex(browserBinding) !== request.browser_binding_hash)
    throw stateRefused('The sign-in was started in another browser; start the sign-in again.');
  if (new Date(request.expires_at).getTime() <= now.getTime()) throw stateRefused('The sign-in took too long; start the sign-in again.');

  const config = await issuerConfiguration(sso, context, now);
  const state = answer.state ?? '';
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrlOf(request.redirect_uri, { code: answer.code ?? '', state }), {
      pkceCodeVerifier: request.code_verifier,
      expectedNonce: request.nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (error) {
    throw refusalOf(error);
  }
  if (!claims) throw tokenRefused('SSO_ID_TOKEN_INVALID', 'The identity provider answered no ID token.');
  const email = typeof claims.email === 'string' ? assertedEmail(claims.email) : null;
  if (email === null || claims.email_verified !== true) throw tokenRefused('SSO_ID_TOKEN_INVALID', 'The ID token carries no verified e-mail address (email).');
  const givenName = typeof claims.given_name === 'string' ? claims.given_name : null;
  const familyName = typeof claims.family_name === 'string' ? claims.family_name : null;
  if (!areStorableTexts([givenName, familyName]))
    throw tokenRefused('SSO_ID_TOKEN_INVALID', 'A name in the ID token holds a control character or hidden formatting (given_name, family_name).');
  return { email, givenName, familyName, lastVisitedPath: request.last_visited_path };
}

/** The failed claim of an openid-client error (its causes carry it), or the claim its message names. */
function failedClaimOf(error: unknown): { claim: string | undefined; text: string } {
  const messages: string[] = [];
  let claim: string | undefined;
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    messages.push(current.message);
    const cause = current.cause;
    if (claim === undefined && isRecord(cause) && typeof cause.claim === 'string') claim = cause.claim;
  }
  const text = messages.join(' / ');
  return { claim: claim ?? /JWT "(\w+)"/.exec(text)?.[1], text };
}

/**
 * openid-client's refusal as the gateway's error (ADR 0015 "Errors"): the token endpoint's refusal
 * is SSO_CODE_REJECTED (or SSO_CLIENT_REJECTED when it refused the client), an ID token check
 * SSO_ID_TOKEN_INVALID / SSO_NONCE_MISMATCH naming the claim, an unreachable issuer
 * SSO_ISSUER_UNAVAILABLE. Never a 500, and never the token or a credential in the message.
 */
function refusalOf(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof oidc.ResponseBodyError) {
    const body: unknown = error.cause;
    const said = isRecord(body) && typeof body.message === 'string' ? body.message : error.error_description;
    const reason = said ? ` (${said})` : '';
    if (error.error === 'invalid_client') {
      return new HttpError(
        502,
        'SSO_CLIENT_REJECTED',
        `The identity provider refused this site's client credentials${reason}; the portal's SSO configuration needs fixing.`,
      );
    }
    return new HttpError(401, 'SSO_CODE_REJECTED', `The identity provider refused the authorization code${reason}; start the sign-in again.`, {
      code: 'invalid',
    });
  }
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string' || !error.code.startsWith('OAUTH_')) return issuerUnavailable();
  if (['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON', 'OAUTH_HTTP_REQUEST_FORBIDDEN', 'OAUTH_REQUEST_PROTOCOL_FORBIDDEN'].includes(error.code))
    return issuerUnavailable();
  const { claim, text } = failedClaimOf(error);
  if (claim === 'nonce') return tokenRefused('SSO_NONCE_MISMATCH', 'The ID token nonce does not match this sign-in (nonce); start the sign-in again.');
  if (claim === 'iss') return tokenRefused('SSO_ID_TOKEN_INVALID', "The ID token was not issued by the site's identity provider (iss).");
  if (claim === 'aud' || claim === 'azp') return tokenRefused('SSO_ID_TOKEN_INVALID', "The ID token is not meant for this site's client (aud).");
  if (claim === 'exp' || claim === 'iat' || claim === 'nbf')
    return tokenRefused('SSO_ID_TOKEN_INVALID', `The ID token is expired or not yet valid (${claim}).`);
  if (claim === 'alg' || /"alg"/.test(text))
    return tokenRefused('SSO_ID_TOKEN_INVALID', `The ID token is not signed with ${ID_TOKEN_ALGORITHMS.join(', ')} (alg); its signature does not verify.`);
  if (error.code === 'OAUTH_KEY_SELECTION_FAILED' || /signature/.test(text)) {
    return tokenRefused('SSO_ID_TOKEN_INVALID', "The ID token signature does not verify with the identity provider's published keys.");
  }
  return tokenRefused('SSO_ID_TOKEN_INVALID', 'The identity provider answered no valid ID token.');
}

/**
 * An asserted person as a card holder of the site: their account when it already holds this site (ADR 0015 "Account
 * linking"), or a new one, active with no usable password. An existing account that is not a holder of this site is
 * never linked: users are global by e-mail, and an identity provider vouches for its own bank's people only, so an
 * IdP of another bank could otherwise reach any holder whose address it asserts (ADR 0017 threat model).
 */
export async function findOrCreateSsoUser(db: Database, siteId: string, subject: SsoSubject) {
  return db.transaction(async (tx) => {
    // ADR 0009 "Activation": the provider's verified address proves the mailbox, not the password of a registration
    // nobody activated; that registration is no one's, so it goes whole and the person gets an account of their own.
    const unproved = await lockUnprovedAccount(tx, { email: subject.email });
    if (unproved !== null) await dropUnprovedAccount(tx, unproved);
    // SSO users never sign in with a password: this marker is no Argon2 hash, so every password check fails.
    const created = await tx.query<SsoAccountRow>(
      `insert into users (email, password_hash, first_name, last_name, status, roles)
       values ($1, $4, $2, $3, 'ACTIVE', '{ROLE_CARDHOLDER}')
       on conflict (email) do nothing
       returning id, roles, status, mfa_enrollment_status`,
      [subject.email, subject.givenName, subject.familyName, NO_PASSWORD_MARKER],
    );
    const user = created.rows[0] ?? (await existingAccountFor(tx, siteId, subject.email));
    await tx.query('insert into user_sites (user_id, site_id) values ($1, $2) on conflict do nothing', [user.id, siteId]);
    return { userId: user.id, siteId, roles: user.roles, status: user.status, mfaEnrollmentStatus: user.mfa_enrollment_status };
  });
}

interface SsoAccountRow {
  id: string;
  roles: string[];
  status: string;
  mfa_enrollment_status: string;
}

/** The account the address already has, when the site's SSO may sign into it; refused otherwise (ADR 0015, ADR 0028). */
async function existingAccountFor(tx: Queryable, siteId: string, email: string): Promise<SsoAccountRow> {
  const found = await tx.query<SsoAccountRow & { holds_site: boolean }>(
    `select id, roles, status, mfa_enrollment_status,
            exists (select 1 from user_sites where user_sites.user_id = users.id and user_sites.site_id = $2) as holds_site
       from users where email = $1 for update`,
    [email, siteId],
  );
  const user = found.rows[0];
  if (!user) throw new Error('The SSO user was neither found nor created');
  // ADR 0014: an agent account is reached only by its own password sign-in, never through a site's SSO.
  if (!user.roles.includes('ROLE_CARDHOLDER'))
    throw new HttpError(403, 'SSO_ACCOUNT_NOT_CARDHOLDER', 'This identity belongs to an account that cannot sign in through SSO.');
  if (!user.holds_site)
    throw new HttpError(
      409,
      'SSO_ACCOUNT_ELSEWHERE',
      "This e-mail address belongs to an account of another site; the site's identity provider cannot sign into it.",
    );
  return { id: user.id, roles: user.roles, status: user.status, mfa_enrollment_status: user.mfa_enrollment_status };
}
