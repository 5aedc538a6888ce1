import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { ROUTE_ACCESS_KINDS, type RouteAccess } from '../../schemas/api/contract';
import { SITE_ID_PATTERN } from '../../schemas/site-config/types';
import { isStorableText } from '../../schemas/validators/characters';
import { readCookies, SESSION_COOKIE, clearSessionCookies } from '../auth/session-cookies';
import { findSession, type SessionUser } from '../auth/session-store';
import { assertFreshProof } from '../auth/assurance';
import type { Database } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import type { Clock } from '../time/clock';
import { holdsOperatorToken } from '../security/operator-token';
import { HttpError } from './errors';

const SITE_ID = new RegExp(SITE_ID_PATTERN);

/**
 * Who may call a route: `RouteAccess` of the route contract (schemas/api/contract.ts, docs/decisions/0017-threat-model.md
 * "Declared access"). Every route that is not public is bound to the session's site: a site the request names anywhere
 * (path or query `siteId`, body `siteId`, `X-SITE-ID`) must be the session's.
 */
export type { RouteAccess };

const ACCESS_KINDS: ReadonlySet<string> = new Set<string>(ROUTE_ACCESS_KINDS);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every route: `declareAccessOfEveryRoute` refuses a route without it. */
    access?: RouteAccess;
    /**
     * ADR 0009 "Compromised credentials": the route stays open to a session whose account must first
     * replace a breached password (the replacement itself and what the app needs to know it is signed in).
     */
    openWhilePasswordChangeRequired?: true;
    /**
     * docs/decisions/0025-fresh-proof.md: the route lets its caller own the account (a password, an
     * authenticator, backup codes, an alias, deletion), so holding the session is not enough: it needs a
     * proof of the site's strongest factor given within the last 10 minutes (403 FRESH_PROOF_REQUIRED), and
     * an agent's session never has it. A change that owns the account only for some bodies (a contact point
     * among the attributes) asks `assertFreshProof` itself.
     */
    freshProof?: true;
  }
  interface FastifyRequest {
    /** The session the access hook found for a route that is not public; null before. */
    sessionUser: SessionUser | null;
  }
}

/** Thrown at start (so the build and every test fail) when a route declares no access. */
export class UndeclaredAccessError extends Error {
  constructor(method: RouteOptions['method'], url: string) {
    super(`${String(method)} ${url} declares no access: take it from its contract entry (fromContract; one of ${ROUTE_ACCESS_KINDS.join(', ')})`);
    this.name = 'UndeclaredAccessError';
  }
}

/** The scopes `enforceDeclaredAccess` was added to; a plugin's scope inherits from its parent's by prototype. */
const enforcedScopes = new WeakSet<object>();

function isEnforcedScope(scope: object): boolean {
  for (let current: object | null = scope; current !== null; current = Object.getPrototypeOf(current) as object | null) {
    if (enforcedScopes.has(current)) return true;
  }
  return false;
}

/** Access given to the routes a third-party plugin registers while `registerPluginWithAccess` runs. */
const pluginRouteAccess = new WeakMap<FastifyInstance, RouteAccess>();

/**
 * Added on the root instance before any route: every route registered after it must say who may
 * call it, or the gateway does not start.
 */
export function declareAccessOfEveryRoute(app: FastifyInstance): void {
  // Stryker disable next-line StringLiteral,CallExpression: run once as the gateway is built, before a test can switch the mutant on; without it a public call naming a site is a 500 (checked by hand)
  app.decorateRequest('sessionUser', null);
  app.addHook('onRoute', function checkDeclaredAccess(route) {
    const granted = pluginRouteAccess.get(this);
    // Stryker disable next-line ConditionalExpression: given no access either, the route keeps `access` undefined and is refused below alike
    if (route.config?.access === undefined && granted !== undefined) route.config = { ...route.config, access: granted };
    const access = route.config?.access;
    // Stryker disable next-line ConditionalExpression: the set of kinds holds no undefined and refuses it alike; the test narrows the type for the set
    if (access === undefined || !ACCESS_KINDS.has(access)) throw new UndeclaredAccessError(route.method, route.url);
    if (access !== 'public' && !isEnforcedScope(this))
      throw new Error(`${String(route.method)} ${route.url} is ${access} but registered outside the scope that enforces access`);
  });
}

/**
 * Registers a plugin whose routes cannot carry our config (@fastify/static) on `app` itself (its
 * decorators must stay there), giving each of its routes `access`.
 */
export async function registerPluginWithAccess(app: FastifyInstance, access: RouteAccess, register: () => PromiseLike<unknown>): Promise<void> {
  pluginRouteAccess.set(app, access);
  try {
    await register();
  } finally {
    pluginRouteAccess.delete(app);
  }
}

/**
 * The one place access is enforced. On request (before the body is read): a `public-site-bound` route lets anyone
 * through, but a caller with a live session is held to its site as below (and the route reads `sessionUser`); an operator's route needs the
 * operators' bearer token (401 UNAUTHENTICATED); any other route that is not
 * public needs a live session (401 UNAUTHENTICATED), of the right kind (403 CONCIERGE_NOT_ALLOWED for
 * an agent on a card holder's call, 403 NOT_CONCIERGE for a card holder on an agent's), an agent's
 * session needs its site still granted (403 SITE_NOT_GRANTED), an account that signed in with a
 * breached password reaches only the routes marked `openWhilePasswordChangeRequired` until it has
 * replaced it (403 PASSWORD_CHANGE_REQUIRED; ADR 0009, SPEC §2 compromised-credentials), a route that owns the
 * account needs fresh proof (403 FRESH_PROOF_REQUIRED, ADR 0025), and every
 * site the request names (the `siteId` path parameter, each `siteId` of the query string, X-SITE-ID, then a body's
 * `siteId` once it is read) must be the session's (403 SITE_MISMATCH; a malformed one is a 400
 * naming its field).
 */
export function enforceDeclaredAccess(
  api: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; clock: Clock; operatorToken?: string | undefined },
): void {
  const { db, fixtures, clock, operatorToken } = options;
  enforcedScopes.add(api);
  api.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access;
    // Every route declares its access (declareAccessOfEveryRoute); one without would be held as signed-in, never let through.
    if (access === 'public') return;
    if (access === 'public-site-bound') {
      const token = readCookies(request).get(SESSION_COOKIE);
      const user = token ? (await findSession(db, token, clock.now())).user : null;
      if (user !== null) bindToSessionSite(request, user);
      return;
    }
    // README "Metrics": the operators' token, never a session; a scope without a token refuses everyone.
    if (access === 'operator') {
      if (operatorToken === undefined || !holdsOperatorToken(request.headers.authorization, operatorToken)) {
        void reply.header('www-authenticate', 'Bearer');
        throw new HttpError(401, 'UNAUTHENTICATED', 'This is for operators: send the metrics token as a bearer token.');
      }
      return;
    }
    const token = readCookies(request).get(SESSION_COOKIE);
    // Stryker disable next-line ObjectLiteral: without a token the next lines refuse before `reason` is read, whatever the stand-in holds
    const { user, endReason: reason } = token ? await findSession(db, token, clock.now()) : { user: null, endReason: null };
    if (!user) {
      if (!token) throw new HttpError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
      clearSessionCookies(request, reply);
      // A session a new password ended elsewhere says so (`sessionEnded`), so the sign-in page can tell the holder why.
      if (reason === null) throw new HttpError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
      throw new HttpError(401, 'UNAUTHENTICATED', 'Your password was changed, so this session ended. Sign in with the new password.', undefined, {
        extras: { sessionEnded: reason },
      });
    }
    if (access === 'cardholder' && user.isAgent) {
      throw new HttpError(403, 'CONCIERGE_NOT_ALLOWED', 'A support agent cannot change passwords, MFA, cards or the account; the card holder does that.');
    }
    if (access === 'agent' && !user.isAgent) throw new HttpError(403, 'NOT_CONCIERGE', 'Only a support agent may use the concierge calls.');
    // An agent's grant can be withdrawn while they are signed in; their session ends with it.
    if (user.isAgent && !user.siteGranted) throw new HttpError(403, 'SITE_NOT_GRANTED', 'This site is not granted to this support agent.');
    if (user.passwordChangeRequired && request.routeOptions.config.openWhilePasswordChangeRequired !== true) {
      throw new HttpError(403, 'PASSWORD_CHANGE_REQUIRED', 'Your password appeared in a data breach; choose a new one before going on.');
    }
    bindToSessionSite(request, user);
  });
  // Stryker disable next-line BlockStatement: the hook is added once as the gateway is built, before a test can switch the mutant on; emptied by hand, three tests fail
  api.addHook('preValidation', async (request) => {
    const body = request.body;
    if (request.sessionUser === null || typeof body !== 'object' || body === null || Array.isArray(body) || !('siteId' in body)) return;
    assertSessionSite(request.sessionUser, body.siteId, 'siteId');
  });
  // Last before the handler (ADR 0025): a body's field errors, and a route's own "not offered here" refusal
  // (its preValidation hook), come first, so the person is never asked to confirm a change that cannot be made.
  api.addHook('preHandler', async (request) => {
    // Stryker disable next-line ConditionalExpression: a route asking fresh proof is never public, so a session is always found here
    if (request.routeOptions.config.freshProof !== true || request.sessionUser === null) return;
    await assertFreshProof(db, fixtures, request.sessionUser, clock.now());
  });
}

/** Every site the request names before its body is read must be the session's; the session is then the request's. */
function bindToSessionSite(request: FastifyRequest, user: SessionUser): void {
  const params = request.params as Record<string, unknown> | undefined;
  // Stryker disable next-line OptionalChaining: Fastify gives every route a params object
  if (params?.siteId !== undefined) assertSessionSite(user, params.siteId, 'siteId');
  // The query string as sent: a route's schema may strip a parameter it does not declare.
  const queryStart = request.url.indexOf('?');
  // Stryker disable next-line ConditionalExpression,UnaryOperator: without a '?' the whole path read as a query has one name, starting with '/', never siteId
  if (queryStart !== -1)
    for (const siteId of new URLSearchParams(request.url.slice(queryStart + 1)).getAll('siteId')) assertSessionSite(user, siteId, 'siteId');
  // SPEC §7 puts X-SITE-ID on every call.
  const header = request.headers['x-site-id'];
  if (header !== undefined) assertSessionSite(user, header, 'x-site-id');
  request.sessionUser = user;
}

function assertSessionSite(user: SessionUser, named: unknown, field: string): void {
  if (typeof named !== 'string' || !SITE_ID.test(named)) {
    // The same key as the character guard (ADR 0005 "Characters") when that is what is wrong.
    // Stryker disable next-line ConditionalExpression: a body's strings, a control character in an array's among them, meet the character guard first; the other places name only texts
    const key = typeof named === 'string' && !isStorableText(named) ? 'invalidCharacter' : 'invalid';
    throw new HttpError(400, 'VALIDATION_FAILED', `Invalid request: ${field} must be a site id (letters, digits, _ and -).`, { [field]: key });
  }
  if (named !== user.siteId) throw new HttpError(403, 'SITE_MISMATCH', 'This session belongs to another site; sign in on this site.');
}
